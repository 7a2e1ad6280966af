// Reads exported Go files with Go's own parser and collects their string literals, for
// tests/it/target_tools.rs (which also runs `gofmt -e` over them).
//
// Usage: go run check_go.go MARK FILE...
//
// Prints tab-separated lines, texts as UTF-8 hex: `OK path`, `ERR path hex`, `LIT path hex`
// (a string literal's value, unquoted by strconv, that holds MARK). Nothing is compiled but
// this program: the target libraries (River, Temporal) are not installed.
package main

import (
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
)

func main() {
	mark := os.Args[1]
	for _, name := range os.Args[2:] {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			fmt.Printf("ERR\t%s\t%s\n", name, hex.EncodeToString([]byte(err.Error())))
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && strings.Contains(s, mark) {
					fmt.Printf("LIT\t%s\t%s\n", name, hex.EncodeToString([]byte(s)))
				}
			}
			return true
		})
		fmt.Printf("OK\t%s\t\n", name)
	}
}
