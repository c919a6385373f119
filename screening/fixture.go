package screening

import _ "embed"

// fixtureUN is a small UN list in the real file's shape (testdata/un_consolidated.xml),
// screened against in development and test mode. Its people are invented.
//
//go:embed testdata/un_consolidated.xml
var fixtureUN []byte

// FixtureSource is the UN list source that names the embedded fixture.
const FixtureSource = "fixture:un_consolidated.xml"

// FixtureUNList is the embedded fixture's bytes.
func FixtureUNList() []byte { return append([]byte(nil), fixtureUN...) }
