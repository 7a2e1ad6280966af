"""Reads exported files with Python-side tools, for tests/it/target_tools.rs.

Usage: python3 check_python.py MARK FILE...

By suffix: `.py` Python's own parser and compiler (`ast.parse`, then `compile`, which also
catches what only the compiler rejects; nothing runs); `.yaml` PyYAML `safe_load_all` (every
file holds at least one mapping); `.cfn.yaml` the same with CloudFormation's short tags
(`!Ref`, `!GetAtt` ...) read as plain values; `.cfnlint.yaml` that, then cfn-lint (rules E*
are errors, the others warnings); `.tf` python-hcl2, plus the HCL rules it lets through (no raw line break inside a
quoted string, only HCL's escapes).

Prints one tab-separated line per finding, texts as UTF-8 hex:
`OK path`, `ERR path hex`, `WARN path hex`, `LIT path hex` (a string the file's parser read
that holds MARK), `MISSING module hex` (what to install).
"""

import ast
import re
import sys


def out(tag, name, text=""):
    print(tag, name, text.encode("utf-8", "surrogatepass").hex(), sep="\t")


MISSING = []
try:
    import yaml
except ImportError:
    MISSING.append(("yaml", "PyYAML"))
try:
    import hcl2
except ImportError:
    MISSING.append(("hcl2", "python-hcl2"))
# cfn-lint takes seconds to import: only when there is a template to lint.
if any(name.endswith(".cfnlint.yaml") for name in sys.argv[2:]):
    try:
        import cfnlint.api
    except ImportError:
        MISSING.append(("cfnlint", "cfn-lint"))


def strings(value):
    """Every str in a loaded YAML / HCL value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def check_python(src):
    tree = ast.parse(src)
    compile(src, "<export>", "exec", dont_inherit=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


if "yaml" in sys.modules:

    class CfnLoader(yaml.SafeLoader):
        """SafeLoader that reads CloudFormation's `!Tag value` as the plain value."""

    def _any_tag(loader, _suffix, node):
        if isinstance(node, yaml.ScalarNode):
            return loader.construct_scalar(node)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_mapping(node, deep=True)

    CfnLoader.add_multi_constructor("!", _any_tag)


def check_yaml(src, loader):
    docs = list(yaml.load_all(src, Loader=loader))
    if not any(isinstance(d, dict) for d in docs):
        raise ValueError("no YAML mapping in the file (only comments or scalars)")
    yield from strings(docs)


HCL_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[nrt\"\\])")


def hcl_unquote(raw):
    """The text of an HCL quoted template as python-hcl2 returns it (quotes and escapes
    kept), checked against HCL's own rules: no raw line break, escapes only \\n \\r \\t \\"
    \\\\ \\uNNNN \\UNNNNNNNN; `$${` and `%%{` read as `${` and `%{`."""
    body = raw[1:-1]
    if "\n" in body or "\r" in body:
        raise ValueError(f"a line break inside a quoted string: {raw[:80]!r}")
    out_chars = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            m = HCL_ESCAPE.match(body, i)
            if not m:
                raise ValueError(f"invalid escape {body[i:i + 2]!r} in {raw[:80]!r}")
            e = m.group(1)
            out_chars.append(
                {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}.get(e)
                or chr(int(e[1:], 16))
            )
            i = m.end()
        elif body.startswith("$${", i) or body.startswith("%%{", i):
            out_chars.append(body[i] + "{")
            i += 3
        else:
            out_chars.append(c)
            i += 1
    return "".join(out_chars)


def check_hcl(src):
    data = hcl2.loads(src)
    for key in ("__comments__", "__inline_comments__"):
        data.pop(key, None)
    for s in strings(data):
        if len(s) >= 2 and s.startswith('"') and s.endswith('"'):
            yield hcl_unquote(s)


def check_cfn(name, src):
    for m in cfnlint.api.lint(src):
        rule = m.rule.id
        text = f"cfn-lint {rule} line {m.linenumber}: {m.message}"
        out("ERR" if rule.startswith("E") else "WARN", name, text)


def main():
    mark, files = sys.argv[1], sys.argv[2:]
    for module, package in MISSING:
        out("MISSING", module, f"python3 cannot import {module} (PyPI {package})")
    if MISSING:
        return
    for name in files:
        try:
            with open(name, encoding="utf-8") as f:
                src = f.read()
            if name.endswith(".py"):
                found = list(check_python(src))
            elif name.endswith(".cfnlint.yaml"):
                found = list(check_yaml(src, CfnLoader))
                check_cfn(name, src)
            elif name.endswith(".cfn.yaml"):
                found = list(check_yaml(src, CfnLoader))
            elif name.endswith(".yaml"):
                found = list(check_yaml(src, yaml.SafeLoader))
            elif name.endswith(".tf"):
                found = list(check_hcl(src))
            else:
                raise ValueError("no check for this file type")
        except Exception as e:  # every parser's own error, reported per file
            out("ERR", name, f"{type(e).__name__}: {e}")
            continue
        for s in found:
            if mark in s:
                out("LIT", name, s)
        out("OK", name)


main()
