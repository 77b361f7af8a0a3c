// Package interspersed parses a command line whose flags may come after
// its arguments, as kubectl's (spf13/pflag's) do: `normalize
// sample.yaml --crd config/crd/bases` reads the flag before it reads a
// file, instead of taking "--crd" for a file name once the objects of
// sample.yaml have been printed without it. Everything after "--" is an
// argument; "-" alone (standard input) is an argument.
package interspersed

import "flag"

// Parse parses args into fs, flags wherever they stand, and returns the
// arguments in their order.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	var out []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		i := 0
		for i < len(rest) && !isFlag(rest[i]) {
			i++
		}
		out = append(out, rest[:i]...)
		if i == len(rest) {
			return append(out, tail...), nil
		}
		args = rest[i:]
	}
}

// isFlag says whether a is a flag: a dash and more ("-" is standard
// input).
func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }
