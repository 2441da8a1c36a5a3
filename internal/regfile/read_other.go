//go:build !unix

package regfile

func readFile(path string) ([]byte, error) { return readFileOS(path) }
