package perfilseguro

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"regexp"
)

var profileIDPattern = regexp.MustCompile(`^PS-[0-9]{4}-[0-9]{4}-[0-9]{2}$`)

// NewProfileID returns a random profile ID PS-nnnn-nnnn-nn (callers retry on the rare collision).
func NewProfileID() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1e10))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	d := fmt.Sprintf("%010d", n.Int64())
	return "PS-" + d[0:4] + "-" + d[4:8] + "-" + d[8:10]
}

// ValidProfileID reports whether s has the profile ID shape.
func ValidProfileID(s string) bool { return profileIDPattern.MatchString(s) }
