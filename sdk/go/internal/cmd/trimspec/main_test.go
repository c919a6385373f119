package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// full is a small 3.1 document shaped like the server's: partner and other routes, webhooks,
// 3.1 type arrays, and an inline copy of a component schema.
const full = `{
  "openapi": "3.1.0",
  "info": {"title": "Perfil Seguro API", "version": "1.0.0", "summary": "3.1 only", "license": {"name": "Propietaria", "identifier": "x"}},
  "servers": [{"url": "https://perfilseguro.mx"}],
  "tags": [{"name": "Socios"}, {"name": "Admin"}],
  "paths": {
    "/api/partner/v1/things": {
      "get": {
        "operationId": "GET_/api/partner/v1/things",
        "tags": ["Socios"],
        "security": [{"llaveSecreta": []}],
        "parameters": [{"in": "query", "name": "after", "schema": {"type": ["string", "null"]}}],
        "responses": {
          "200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ThingList"}}}},
          "503": {"description": "luego", "headers": {"Retry-After": {"schema": {"type": ["integer", "null"]}}},
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
        }
      }
    },
    "/api/widget/verify": {"get": {"operationId": "GET_/api/widget/verify", "tags": ["Socios"], "responses": {"200": {"description": "OK"}}}},
    "/api/widget/verify-code": {"post": {"operationId": "POST_/api/widget/verify-code", "responses": {"200": {"description": "OK"}}}},
    "/api/admin/users": {"get": {"operationId": "GET_/api/admin/users", "tags": ["Admin"], "security": [{"administrador": []}],
      "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AdminUser"}}}}}}}
  },
  "webhooks": {"thing.done": {"post": {"responses": {"200": {"description": "OK"}}}}},
  "components": {
    "securitySchemes": {
      "llaveSecreta": {"type": "http", "scheme": "bearer"},
      "administrador": {"type": "apiKey", "in": "cookie", "name": "ps_admin"}
    },
    "schemas": {
      "Thing": {"description": "Thing schema", "type": "object", "required": ["id"], "properties": {
        "id": {"type": "string"},
        "kind": {"const": "thing"},
        "note": {"type": ["string", "null"], "examples": ["hola"]},
        "score": {"type": "number", "exclusiveMinimum": 0},
        "type": {"type": "string"},
        "maybe": {"anyOf": [{"$ref": "#/components/schemas/ErrorBody"}, {"type": "null"}]},
        "mixed": {"type": ["string", "integer"]}
      }},
      "ThingList": {"type": "object", "properties": {"data": {"type": "array", "items":
        {"type": "object", "required": ["id"], "properties": {
          "id": {"type": "string"},
          "kind": {"const": "thing"},
          "note": {"type": ["string", "null"], "examples": ["hola"]},
          "score": {"type": "number", "exclusiveMinimum": 0},
          "type": {"type": "string"},
          "maybe": {"anyOf": [{"$ref": "#/components/schemas/ErrorBody"}, {"type": "null"}]},
          "mixed": {"type": ["string", "integer"]}
        }}}}},
      "ErrorBody": {"type": "object", "required": ["message"], "properties": {
        "message": {"type": "string"},
        "errors": {"type": ["object", "null"], "additionalProperties": {"type": ["string", "null"]}}}},
      "AdminUser": {"type": "object", "properties": {"email": {"type": "string"}}}
    }
  }
}`

func trimmed(t *testing.T, src string) (map[string]any, []string) {
	t.Helper()
	out, warnings, err := Trim([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	return doc, warnings
}

func get(t *testing.T, doc any, path ...string) any {
	t.Helper()
	cur := doc
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%v: %q is not under an object", path, p)
		}
		cur, ok = m[p]
		if !ok {
			t.Fatalf("%v: no %q", path, p)
		}
	}
	return cur
}

func TestTrimKeepsThePartnerOperations(t *testing.T) {
	doc, _ := trimmed(t, full)
	if doc["openapi"] != "3.0.3" {
		t.Errorf("openapi = %v", doc["openapi"])
	}
	if _, ok := doc["webhooks"]; ok {
		t.Error("webhooks kept")
	}
	paths := get(t, doc, "paths").(map[string]any)
	if len(paths) != 2 || paths["/api/partner/v1/things"] == nil || paths["/api/widget/verify"] == nil {
		t.Errorf("paths = %v", keys(paths))
	}
	schemas := get(t, doc, "components", "schemas").(map[string]any)
	if want := []string{"ErrorBody", "Thing", "ThingList"}; !reflect.DeepEqual(keys(schemas), want) {
		t.Errorf("schemas = %v, want %v", keys(schemas), want)
	}
	sec := get(t, doc, "components", "securitySchemes").(map[string]any)
	if len(sec) != 1 || sec["llaveSecreta"] == nil {
		t.Errorf("security schemes = %v", keys(sec))
	}
	if tags := doc["tags"].([]any); len(tags) != 1 {
		t.Errorf("tags = %v", tags)
	}
	if _, ok := get(t, doc, "info").(map[string]any)["summary"]; ok {
		t.Error("info.summary kept")
	}
	if get(t, doc, "paths", "/api/partner/v1/things", "get", "operationId") != "getThings" {
		t.Errorf("derived operationId = %v", get(t, doc, "paths", "/api/partner/v1/things", "get", "operationId"))
	}
	if get(t, doc, "paths", "/api/widget/verify", "get", "operationId") != "getWidgetStatus" {
		t.Error("the widget operation was not renamed")
	}
}

func TestTrimDowngradesTo30(t *testing.T) {
	doc, warnings := trimmed(t, full)
	thing := get(t, doc, "components", "schemas", "Thing", "properties").(map[string]any)
	check := func(name string, want map[string]any) {
		t.Helper()
		if !reflect.DeepEqual(thing[name], want) {
			t.Errorf("%s = %v, want %v", name, thing[name], want)
		}
	}
	check("note", map[string]any{"type": "string", "nullable": true, "example": "hola"})
	check("kind", map[string]any{"enum": []any{"thing"}})
	check("score", map[string]any{"type": "number", "minimum": float64(0), "exclusiveMinimum": true})
	check("type", map[string]any{"type": "string"}) // a property named "type" is left alone
	check("maybe", map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/ErrorBody"}}, "nullable": true})
	check("mixed", map[string]any{})
	if len(warnings) == 0 || !strings.Contains(strings.Join(warnings, "\n"), "mixed") {
		t.Errorf("warnings = %v", warnings)
	}

	errs := get(t, doc, "components", "schemas", "ErrorBody", "properties", "errors")
	if want := map[string]any{"type": "object", "nullable": true,
		"additionalProperties": map[string]any{"type": "string", "nullable": true}}; !reflect.DeepEqual(errs, want) {
		t.Errorf("ErrorBody.errors = %v", errs)
	}
	op := get(t, doc, "paths", "/api/partner/v1/things", "get").(map[string]any)
	param := op["parameters"].([]any)[0].(map[string]any)["schema"]
	if !reflect.DeepEqual(param, map[string]any{"type": "string", "nullable": true}) {
		t.Errorf("parameter schema = %v", param)
	}
	header := get(t, op, "responses", "503", "headers", "Retry-After", "schema")
	if !reflect.DeepEqual(header, map[string]any{"type": "integer", "nullable": true}) {
		t.Errorf("header schema = %v", header)
	}
	// The security scheme's "type": "http" is not a schema type and stays.
	if get(t, doc, "components", "securitySchemes", "llaveSecreta", "type") != "http" {
		t.Error("security scheme changed")
	}
}

func TestTrimFoldsInlineCopiesIntoRefs(t *testing.T) {
	doc, _ := trimmed(t, full)
	items := get(t, doc, "components", "schemas", "ThingList", "properties", "data", "items")
	if !reflect.DeepEqual(items, map[string]any{"$ref": "#/components/schemas/Thing"}) {
		t.Errorf("items = %v", items)
	}
	// A component schema is not replaced by a $ref to itself.
	if _, ok := get(t, doc, "components", "schemas", "Thing").(map[string]any)["$ref"]; ok {
		t.Error("Thing became a $ref")
	}
}

func TestTrimRefusesWhatItCannotKeep(t *testing.T) {
	for name, src := range map[string]string{
		"not JSON":       `openapi: 3.1.0`,
		"swagger 2":      `{"swagger": "2.0", "paths": {}}`,
		"no partner API": `{"openapi": "3.1.0", "paths": {"/api/admin/users": {}}}`,
		"dangling ref": `{"openapi": "3.1.0", "paths": {"/api/partner/v1/x": {"get": {"responses": {"200":
			{"$ref": "#/components/responses/Ok"}}}}}, "components": {"schemas": {}}}`,
		"missing schema": `{"openapi": "3.1.0", "paths": {"/api/partner/v1/x": {"get": {"responses": {"200": {"description": "OK",
			"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Nope"}}}}}}}}, "components": {"schemas": {}}}`,
	} {
		if _, _, err := Trim([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestTrimIsDeterministic(t *testing.T) {
	a, _, err := Trim([]byte(full))
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b, _, _ := Trim([]byte(full))
		if string(a) != string(b) {
			t.Fatal("two runs differ")
		}
	}
}

// The committed openapi.json is what oapi-codegen reads: 3.0.3, the partner operations with
// their Go names, and no 3.1 type arrays left.
func TestCommittedSpec(t *testing.T) {
	raw, err := os.ReadFile("../../../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["openapi"] != "3.0.3" || doc["webhooks"] != nil {
		t.Errorf("openapi = %v, webhooks = %v", doc["openapi"], doc["webhooks"] != nil)
	}
	ids := map[string]bool{}
	paths := get(t, doc, "paths").(map[string]any)
	for p, item := range paths {
		if !keepPath(p) {
			t.Errorf("path %s should not be there", p)
		}
		for _, op := range item.(map[string]any) {
			if m, ok := op.(map[string]any); ok {
				ids[m["operationId"].(string)] = true
			}
		}
	}
	for _, name := range operationNames {
		if !ids[name] {
			t.Errorf("operation %s missing", name)
		}
	}
	var walk func(any)
	walk = func(n any) {
		switch v := n.(type) {
		case map[string]any:
			if _, isList := v["type"].([]any); isList {
				t.Errorf("a type array is left: %v", v)
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
}

func keys(m map[string]any) []string { return sortedKeys(m) }
