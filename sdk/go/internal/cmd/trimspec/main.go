// Command trimspec cuts the server's OpenAPI 3.1 document down to what the Go SDK is generated
// from: the partner operations (/api/partner/v1/… and GET /api/widget/verify), the component
// schemas and security schemes they use, written as OpenAPI 3.0.3 so that oapi-codegen reads it.
//
//	go run ./internal/cmd/trimspec -in full.json -out openapi.json
//	(cd ../.. && go run ./cmd/perfilseguro openapi) | go run ./internal/cmd/trimspec -out openapi.json
//
// What it changes besides dropping everything else:
//   - "openapi": "3.1.0" becomes "3.0.3" and the top-level "webhooks" go away;
//   - type arrays ({"type": ["string", "null"]}) become {"type": "string", "nullable": true},
//     "const" becomes a one-value "enum", schema "examples" become "example", numeric
//     exclusiveMinimum/exclusiveMaximum become the 3.0 boolean form, and a {"type": "null"}
//     branch of anyOf/oneOf becomes "nullable": true;
//   - operationIds (the server's are "GET_/api/…/:id") get Go-friendly names, so the generated
//     methods read client.GetVerificationSession rather than GETApiPartnerV1…;
//   - an inline object schema identical to a component schema (say the items of
//     SessionList.data and SessionView) becomes a $ref to it, so the generated type is reused.
//
// The output is deterministic (keys sorted, two-space indent), so regenerating twice from the
// same server gives the same file.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
)

// partnerPrefix is the path prefix of the partner API; widgetVerify is the one widget route a
// partner's server calls with its secret key.
const (
	partnerPrefix = "/api/partner/v1/"
	widgetVerify  = "/api/widget/verify"
)

// operationNames gives the kept operations stable, readable operationIds ("METHOD path").
// A partner operation missing here still gets a name derived from its method and path (and a
// warning), so a new route does not break generation.
var operationNames = map[string]string{
	"POST /api/partner/v1/verification-sessions":             "createVerificationSession",
	"GET /api/partner/v1/verification-sessions":              "listVerificationSessions",
	"GET /api/partner/v1/verification-sessions/{id}":         "getVerificationSession",
	"POST /api/partner/v1/verification-sessions/{id}/cancel": "cancelVerificationSession",
	"POST /api/partner/v1/operations":                        "createOperation",
	"GET /api/partner/v1/operations":                         "listOperations",
	"GET /api/partner/v1/operations/{id}":                    "getOperation",
	"GET /api/partner/v1/avisos":                             "listAvisos",
	"GET /api/partner/v1/avisos/{id}/export":                 "exportAviso",
	"POST /api/partner/v1/avisos/{id}/filing":                "fileAviso",
	"GET /api/widget/verify":                                 "getWidgetStatus",
}

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

func main() {
	in := flag.String("in", "-", "the full OpenAPI document (JSON); - reads standard input")
	out := flag.String("out", "-", "where to write the trimmed document; - writes standard output")
	flag.Parse()

	var src []byte
	var err error
	if *in == "-" {
		src, err = io.ReadAll(os.Stdin)
	} else {
		src, err = os.ReadFile(*in)
	}
	if err != nil {
		fatal(err)
	}
	trimmed, warnings, err := Trim(src)
	if err != nil {
		fatal(err)
	}
	for _, w := range warnings {
		fmt.Fprintln(os.Stderr, "trimspec:", w)
	}
	if *out == "-" {
		_, err = os.Stdout.Write(trimmed)
	} else {
		err = os.WriteFile(*out, trimmed, 0o644)
	}
	if err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "trimspec:", err)
	os.Exit(1)
}

// keepPath tells whether a path belongs to the SDK.
func keepPath(p string) bool {
	return strings.HasPrefix(p, partnerPrefix) || p == widgetVerify
}

// Trim turns the full 3.1 document into the SDK's 3.0.3 one; warnings name what it guessed.
func Trim(src []byte) ([]byte, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.") {
		return nil, nil, fmt.Errorf("not an OpenAPI 3 document (openapi = %q)", v)
	}
	var warnings []string

	allPaths, _ := doc["paths"].(map[string]any)
	paths := map[string]any{}
	for p, item := range allPaths {
		if keepPath(p) {
			paths[p] = item
		}
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("no path starts with %s: is this the Perfil Seguro document?", partnerPrefix)
	}

	// Name the operations and note the tags and security schemes they use.
	tagsUsed := map[string]bool{}
	securityUsed := map[string]bool{}
	seenIDs := map[string]string{}
	for _, p := range sortedKeys(paths) {
		item, _ := paths[p].(map[string]any)
		for _, m := range httpMethods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			key := strings.ToUpper(m) + " " + p
			name, known := operationNames[key]
			if !known {
				name = deriveName(m, p)
				warnings = append(warnings, fmt.Sprintf("%s has no name in operationNames; using %q", key, name))
			}
			if other, dup := seenIDs[name]; dup {
				return nil, nil, fmt.Errorf("operationId %q given to both %s and %s", name, other, key)
			}
			seenIDs[name] = key
			op["operationId"] = name
			for _, t := range asSlice(op["tags"]) {
				if s, ok := t.(string); ok {
					tagsUsed[s] = true
				}
			}
			for _, req := range asSlice(op["security"]) {
				if r, ok := req.(map[string]any); ok {
					for name := range r {
						securityUsed[name] = true
					}
				}
			}
		}
	}
	for _, req := range asSlice(doc["security"]) {
		if r, ok := req.(map[string]any); ok {
			for name := range r {
				securityUsed[name] = true
			}
		}
	}

	components, _ := doc["components"].(map[string]any)
	allSchemas, _ := components["schemas"].(map[string]any)
	if err := checkRefs(paths, allSchemas); err != nil {
		return nil, nil, err
	}

	// The schemas reachable from the kept paths, with inline copies of component schemas folded
	// into $refs; a schema that becomes reachable that way is folded in turn.
	schemas := map[string]any{}
	for {
		next := reachable(paths, allSchemas)
		for _, name := range sortedKeys(next) {
			if _, done := schemas[name]; !done {
				next[name] = foldInline(next[name], allSchemas, true)
			}
		}
		next = reachable(paths, allSchemas)
		if len(next) == len(schemas) {
			break
		}
		schemas = next
	}

	newComponents := map[string]any{"schemas": schemas}
	if all, ok := components["securitySchemes"].(map[string]any); ok {
		kept := map[string]any{}
		for name := range securityUsed {
			if s, ok := all[name]; ok {
				kept[name] = s
			}
		}
		if len(kept) > 0 {
			newComponents["securitySchemes"] = kept
		}
	}

	out := map[string]any{
		"openapi":    "3.0.3",
		"info":       doc["info"],
		"paths":      paths,
		"components": newComponents,
	}
	if s, ok := doc["servers"]; ok {
		out["servers"] = s
	}
	if s, ok := doc["security"]; ok {
		out["security"] = s
	}
	var tags []any
	for _, t := range asSlice(doc["tags"]) {
		if m, ok := t.(map[string]any); ok && tagsUsed[fmt.Sprint(m["name"])] {
			tags = append(tags, m)
		}
	}
	if len(tags) > 0 {
		out["tags"] = tags
	}
	if info, ok := out["info"].(map[string]any); ok {
		info = clone(info).(map[string]any)
		if _, has := info["summary"]; has { // info.summary is 3.1 only
			delete(info, "summary")
		}
		if lic, ok := info["license"].(map[string]any); ok {
			delete(lic, "identifier") // 3.1 only
		}
		out["info"] = info
	}

	downgradeDocument(out, &warnings)

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), warnings, nil
}

// reachable returns the component schemas that the given node references, transitively.
func reachable(root any, all map[string]any) map[string]any {
	kept := map[string]any{}
	var queue []string
	var visit func(any)
	visit = func(n any) {
		switch v := n.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				if name, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok {
					if _, seen := kept[name]; !seen {
						if s, exists := all[name]; exists {
							kept[name] = s
							queue = append(queue, name)
						}
					}
				}
			}
			for _, k := range sortedKeys(v) {
				visit(v[k])
			}
		case []any:
			for _, e := range v {
				visit(e)
			}
		}
	}
	visit(root)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		visit(all[name])
	}
	return kept
}

// checkRefs refuses a $ref that trimming would leave dangling: only component schemas are kept.
func checkRefs(root any, all map[string]any) error {
	var bad []string
	seen := map[string]bool{}
	var visit func(any)
	visit = func(n any) {
		switch v := n.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok && !seen[ref] {
				seen[ref] = true
				name, isSchema := strings.CutPrefix(ref, "#/components/schemas/")
				if _, exists := all[name]; !isSchema || !exists {
					bad = append(bad, ref)
				} else {
					visit(all[name])
				}
			}
			for _, e := range v {
				visit(e)
			}
		case []any:
			for _, e := range v {
				visit(e)
			}
		}
	}
	visit(root)
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("cannot keep these references (only #/components/schemas/… that exist are kept): %s", strings.Join(bad, ", "))
	}
	return nil
}

// foldInline replaces, below the top of a schema, an inline object schema that equals one of the
// component schemas (but for its description and title) with a $ref to it.
func foldInline(n any, components map[string]any, top bool) any {
	switch v := n.(type) {
	case map[string]any:
		if !top {
			if _, isObject := v["properties"]; isObject {
				for _, name := range sortedKeys(components) {
					if sameSchema(v, components[name]) {
						return map[string]any{"$ref": "#/components/schemas/" + name}
					}
				}
			}
		}
		for k, e := range v {
			v[k] = foldInline(e, components, false)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = foldInline(e, components, false)
		}
		return v
	}
	return n
}

// sameSchema compares two schemas, ignoring their descriptions at the top.
func sameSchema(a, b any) bool {
	am, ok1 := a.(map[string]any)
	bm, ok2 := b.(map[string]any)
	if !ok1 || !ok2 {
		return false
	}
	strip := func(m map[string]any) map[string]any {
		c := clone(m).(map[string]any)
		delete(c, "description")
		delete(c, "title")
		return c
	}
	return reflect.DeepEqual(strip(am), strip(bm))
}

// downgradeDocument rewrites, in place, the 3.1 constructs that 3.0.3 lacks in every schema of
// the document: those of the components and those inline in parameters, bodies and headers.
func downgradeDocument(doc map[string]any, warnings *[]string) {
	paths, _ := doc["paths"].(map[string]any)
	for _, p := range sortedKeys(paths) {
		item, _ := paths[p].(map[string]any)
		for i, param := range asSlice(item["parameters"]) {
			downgradeParameter(param, warnings, fmt.Sprintf("%s/parameters/%d", p, i))
		}
		for _, m := range httpMethods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			at := strings.ToUpper(m) + " " + p
			for i, param := range asSlice(op["parameters"]) {
				downgradeParameter(param, warnings, fmt.Sprintf("%s/parameters/%d", at, i))
			}
			if body, ok := op["requestBody"].(map[string]any); ok {
				downgradeContent(body["content"], warnings, at+"/requestBody")
			}
			responses, _ := op["responses"].(map[string]any)
			for _, code := range sortedKeys(responses) {
				res, _ := responses[code].(map[string]any)
				downgradeContent(res["content"], warnings, at+"/responses/"+code)
				headers, _ := res["headers"].(map[string]any)
				for _, h := range sortedKeys(headers) {
					downgradeParameter(headers[h], warnings, at+"/responses/"+code+"/headers/"+h)
				}
			}
		}
	}
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	for _, name := range sortedKeys(schemas) {
		downgradeSchemaTree(schemas[name], warnings, "#/components/schemas/"+name)
	}
}

// downgradeParameter handles a parameter or a header: its schema, or its content.
func downgradeParameter(p any, warnings *[]string, at string) {
	m, ok := p.(map[string]any)
	if !ok {
		return
	}
	downgradeSchemaTree(m["schema"], warnings, at+"/schema")
	downgradeContent(m["content"], warnings, at)
}

// downgradeContent handles a media type map ({"application/json": {"schema": …}}).
func downgradeContent(c any, warnings *[]string, at string) {
	content, _ := c.(map[string]any)
	for _, mt := range sortedKeys(content) {
		if media, ok := content[mt].(map[string]any); ok {
			downgradeSchemaTree(media["schema"], warnings, at+"/content/"+mt+"/schema")
		}
	}
}

// downgradeSchemaTree downgrades a schema and every schema nested in it.
func downgradeSchemaTree(n any, warnings *[]string, at string) {
	s, ok := n.(map[string]any)
	if !ok {
		return
	}
	downgradeSchema(s, warnings, at)
	props, _ := s["properties"].(map[string]any)
	for _, name := range sortedKeys(props) {
		downgradeSchemaTree(props[name], warnings, at+"/properties/"+name)
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		downgradeSchemaTree(s[k], warnings, at+"/"+k)
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		for i, e := range asSlice(s[k]) {
			downgradeSchemaTree(e, warnings, fmt.Sprintf("%s/%s/%d", at, k, i))
		}
	}
}

func downgradeSchema(s map[string]any, warnings *[]string, at string) {
	// "type": ["string", "null"] → "type": "string", "nullable": true.
	if types, ok := s["type"].([]any); ok {
		var real []string
		null := false
		for _, t := range types {
			if t == "null" {
				null = true
			} else if ts, ok := t.(string); ok {
				real = append(real, ts)
			}
		}
		switch len(real) {
		case 0:
			delete(s, "type")
		case 1:
			s["type"] = real[0]
		default:
			// 3.0 has no union of types: leave it untyped (any JSON value).
			delete(s, "type")
			*warnings = append(*warnings, fmt.Sprintf("%s: type %v has no 3.0 form; left untyped", at, real))
		}
		if null {
			s["nullable"] = true
		}
	}
	if s["type"] == "null" {
		delete(s, "type")
		s["nullable"] = true
	}
	// A {"type": "null"} branch of anyOf/oneOf.
	for _, k := range []string{"anyOf", "oneOf"} {
		list, ok := s[k].([]any)
		if !ok {
			continue
		}
		var rest []any
		for _, e := range list {
			if m, ok := e.(map[string]any); ok && len(m) == 1 && m["type"] == "null" {
				s["nullable"] = true
				continue
			}
			rest = append(rest, e)
		}
		if len(rest) == 1 && len(list) == 2 {
			// anyOf: [X, null] → allOf: [X] + nullable, the 3.0 idiom oapi-codegen understands.
			delete(s, k)
			s["allOf"] = rest
		} else {
			s[k] = rest
		}
	}
	if c, ok := s["const"]; ok {
		s["enum"] = []any{c}
		delete(s, "const")
	}
	if ex, ok := s["examples"].([]any); ok {
		if len(ex) > 0 {
			s["example"] = ex[0]
		}
		delete(s, "examples")
	}
	for _, bound := range []string{"Minimum", "Maximum"} {
		excl := "exclusive" + bound
		if n, ok := s[excl].(json.Number); ok {
			s[strings.ToLower(bound[:1])+bound[1:]] = n
			s[excl] = true
		}
	}
	for _, k := range []string{"$schema", "$id", "$anchor", "$comment", "$defs", "contentEncoding", "contentMediaType", "unevaluatedProperties", "dependentRequired", "dependentSchemas", "prefixItems"} {
		if _, ok := s[k]; ok {
			delete(s, k)
			*warnings = append(*warnings, fmt.Sprintf("%s: dropped %s (not in OpenAPI 3.0)", at, k))
		}
	}
}

// deriveName builds an operationId from a method and a path: POST /api/partner/v1/foo-bars/{id}
// gives postFooBarsById.
func deriveName(method, path string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(path, partnerPrefix), "/api/")
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" {
			continue
		}
		if strings.HasPrefix(seg, "{") {
			seg = "by-" + strings.Trim(seg, "{}")
		}
		for _, word := range strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	return b.String()
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// clone deep-copies a decoded JSON value.
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		for k, e := range t {
			c[k] = clone(e)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = clone(e)
		}
		return c
	}
	return v
}
