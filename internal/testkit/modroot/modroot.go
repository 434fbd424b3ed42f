// Package modroot finds the repository's root from a test's working folder
// (a test runs in its package's folder). It imports nothing of the project,
// so that the tests of any package can use it, those of the packages
// internal/testkit itself depends on included.
package modroot

import (
	"errors"
	"os"
	"path/filepath"
)

// Find is the folder of go.mod above the working folder.
func Find() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working folder")
		}
		dir = parent
	}
}
