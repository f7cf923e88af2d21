package main

// Temporary entry point until cmd/dealerbot/main.go exists; delete this file when it does.

import "os"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "phh" {
		os.Exit(runPHH(os.Args[2:], os.Stdout, os.Stderr))
	}
	os.Stderr.WriteString("usage: dealerbot phh check PATH...\n")
	os.Exit(2)
}
