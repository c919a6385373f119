package web

import (
	"io/fs"
	"testing"
)

func TestDistFSRootIsTheDistFolder(t *testing.T) {
	// The committed placeholder must be at the root of the sub-filesystem,
	// proving the "dist" prefix was stripped.
	if _, err := fs.Stat(DistFS(), ".gitkeep"); err != nil {
		t.Fatalf("dist/.gitkeep not at the root of DistFS: %v", err)
	}
}
