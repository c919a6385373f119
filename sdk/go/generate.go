package perfilseguro

// Regenerating the typed client takes two steps, run from this directory (sdk/go) with
// `go generate .` (a POSIX shell is needed for the first one):
//
//  1. the server prints its OpenAPI 3.1 document (`go run ./cmd/perfilseguro openapi` at the
//     repository root, no database needed) and internal/cmd/trimspec keeps the partner
//     operations, written as OpenAPI 3.0.3, in openapi.json;
//  2. oapi-codegen v2 turns openapi.json into client.gen.go, as oapi-codegen.yaml says.
//
// Step 1 needs the whole repository; step 2 only openapi.json, so
// `go generate -run oapi-codegen .` regenerates the client from the committed document.
// trimspec writes nothing unless it read a whole document, so a failing server leaves
// openapi.json as it was.

//go:generate sh -c "(cd ../.. && go run ./cmd/perfilseguro openapi) | go run ./internal/cmd/trimspec -out openapi.json"
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi-codegen.yaml openapi.json
