// Reads exported TypeScript and JavaScript files, for tests/it/target_tools.rs.
//
// Usage: node --experimental-vm-modules --no-warnings check_node.mjs MARK E2E_DIR FILE...
//
// `.ts`: the TypeScript compiler (the `typescript` package of E2E_DIR/node_modules), syntactic
// diagnostics only: the target libraries (bullmq, @temporalio/...) are not installed, so
// types cannot be checked. `.mjs`: V8's module parser, as `node --check` runs it
// (`vm.SourceTextModule` compiles without linking or running), and the same TypeScript
// syntactic pass. Nothing is executed.
//
// Prints tab-separated lines, texts as UTF-8 hex: `OK path`, `ERR path hex`, `LIT path hex`
// (a string literal's value that holds MARK), `MISSING module hex`.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

const [mark, e2eDir, ...files] = process.argv.slice(2);
const hex = (s) => Buffer.from(s, "utf8").toString("hex");
const out = (tag, name, text = "") => process.stdout.write(`${tag}\t${name}\t${hex(text)}\n`);

let ts;
try {
  ts = createRequire(path.join(e2eDir, "package.json"))("typescript");
} catch {
  out("MISSING", "typescript", `typescript is not in ${e2eDir}/node_modules (npm ci there)`);
  process.exit(0);
}

const program = ts.createProgram({
  rootNames: files,
  options: {
    allowJs: true,
    noLib: true,
    noResolve: true,
    noEmit: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
  },
});

/** Every string literal's value (template pieces included) that holds `mark`. */
function literals(sf) {
  const found = [];
  const visit = (node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (node.text.includes(mark)) found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

for (const name of files) {
  const sf = program.getSourceFile(name);
  if (!sf) {
    out("ERR", name, "TypeScript did not read the file");
    continue;
  }
  const problems = program.getSyntacticDiagnostics(sf).map((d) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
    return `tsc TS${d.code} line ${line + 1}:${character + 1}: ${text}`;
  });
  if (name.endsWith(".mjs")) {
    try {
      new vm.SourceTextModule(readFileSync(name, "utf8"), { identifier: name });
    } catch (e) {
      problems.push(`node: ${e.name}: ${e.message}`);
    }
  }
  if (problems.length > 0) {
    for (const p of problems) out("ERR", name, p);
    continue;
  }
  for (const s of literals(sf)) out("LIT", name, s);
  out("OK", name);
}
