# Reads exported Elixir files with Elixir's own parser, for tests/it/target_tools.rs.
#
# Usage: elixir check_elixir.exs MARK FILE...
#
# Each file goes through `Code.string_to_quoted!/2` (the parser the compiler uses; nothing is
# compiled or run: the target libraries, e.g. Oban, are not installed).
#
# Prints tab-separated lines, texts as UTF-8 hex: `OK path`, `ERR path hex`, `LIT path hex`
# (a string the parser read that holds MARK).

[mark | files] = System.argv()

out = fn tag, name, text ->
  IO.puts("#{tag}\t#{name}\t#{Base.encode16(text, case: :lower)}")
end

for name <- files do
  try do
    quoted = Code.string_to_quoted!(File.read!(name), file: name)

    {_, found} =
      Macro.prewalk(quoted, [], fn
        s, acc when is_binary(s) ->
          {s, if(String.contains?(s, mark), do: [s | acc], else: acc)}

        node, acc ->
          {node, acc}
      end)

    for s <- Enum.reverse(found), do: out.("LIT", name, s)
    out.("OK", name, "")
  rescue
    e -> out.("ERR", name, "elixir: " <> Exception.message(e))
  end
end
