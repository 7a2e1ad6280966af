# Reads exported Ruby files with Ruby's own parser and collects their string literals, for
# tests/it/target_tools.rs (which also runs `ruby -c` on a few, one process per file).
#
# Usage: ruby check_ruby.rb MARK FILE...
#
# Each file goes through RubyVM::AbstractSyntaxTree (Ruby's own parser; nothing runs).
# Prints tab-separated lines, texts as UTF-8 hex: `OK path`, `ERR path hex`, `LIT path hex`
# (the value of a string literal that holds MARK; of an interpolated string, its text before the
# first `#{}`, so interpolation that should not be there shows as a cut text).

mark = ARGV.shift
out = ->(tag, name, text) { puts [tag, name, text.b.unpack1("H*")].join("\t") }

ARGV.each do |name|
  begin
    root = RubyVM::AbstractSyntaxTree.parse(File.read(name, encoding: "UTF-8"))
  rescue SyntaxError => e
    out.("ERR", name, "ruby: #{e.message}")
    next
  end
  stack = [root]
  found = []
  until stack.empty?
    node = stack.pop
    case node
    when RubyVM::AbstractSyntaxTree::Node
      value = node.children[0]
      if %i[STR DSTR XSTR DXSTR].include?(node.type) && value.is_a?(String) && value.include?(mark)
        found << value
      end
      stack.concat(node.children)
    when Array
      stack.concat(node)
    end
  end
  found.each { |s| out.("LIT", name, s) }
  out.("OK", name, "")
end
