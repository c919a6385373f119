package api

import (
	"net/http"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"
)

// Routes outside fuego (streams, files, redirects, webhooks with raw bodies) are registered
// through handle, which also describes them in the OpenAPI document: a route the document does
// not show cannot be added by mistake (TestEveryServedRouteIsInTheDocument).

// plainRoute is one route served by the mux directly, with its description (nil: undocumented,
// allowed only for the patterns in undocumentedRoutes).
type plainRoute struct {
	pattern string
	op      *openapi3.Operation
}

// undocumentedRoutes are served but are not part of the API contract: development pages,
// the operators' dashboard and the single-page app itself.
var undocumentedRoutes = []string{"/dev/", "/admin/monitoring", "/robots.txt", "/healthz", "/readyz", "/api/openapi.json", "/api/docs"}

// isUndocumented reports whether a pattern is one of undocumentedRoutes (or the SPA's "/").
func isUndocumented(pattern string) bool {
	_, path, _ := strings.Cut(pattern, " ")
	if path == "" {
		path = pattern
	}
	if path == "/" {
		return true
	}
	for _, p := range undocumentedRoutes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// handle registers a plain route and its description.
func (s *Server) handle(pattern string, h http.Handler, op *openapi3.Operation) {
	s.f.Mux.Handle(pattern, h)
	s.plain = append(s.plain, plainRoute{pattern: pattern, op: op})
}

// PlainRoutes lists the mux patterns registered outside fuego (for the route-walk test).
func (s *Server) PlainRoutes() []string {
	out := make([]string, 0, len(s.plain))
	for _, r := range s.plain {
		out = append(out, r.pattern)
	}
	sort.Strings(out)
	return out
}

// documentPlainRoutes adds the plain routes' operations to the document.
func (s *Server) documentPlainRoutes(doc *openapi3.T) {
	for _, r := range s.plain {
		if r.op == nil {
			continue
		}
		method, path, ok := strings.Cut(r.pattern, " ")
		if !ok {
			continue
		}
		if r.op.OperationID == "" {
			r.op.OperationID = operationID(method, path)
		}
		if named, ok := r.op.Extensions["x-components"].(map[string]*openapi3.SchemaRef); ok {
			for name, schema := range named {
				// A schema a framework route already named (SessionView) stays as the framework made it.
				if _, taken := doc.Components.Schemas[name]; !taken {
					doc.Components.Schemas[name] = schema
				}
			}
			delete(r.op.Extensions, "x-components")
		}
		doc.AddOperation(path, method, r.op)
	}
}

// operationID is a URL-safe identifier from the method and path: GET /api/qr/{file} → get_api_qr_file.
func operationID(method, path string) string {
	return strings.ToLower(method) + strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		case r == '{' || r == '}':
			return -1
		}
		return '_'
	}, path)
}

// Operation builders for plain routes.

func op(tag, summary string, params []*openapi3.ParameterRef, responses ...response) *openapi3.Operation {
	o := &openapi3.Operation{Tags: []string{tag}, Summary: summary, Parameters: params, Responses: openapi3.NewResponses()}
	o.Responses.Delete("default")
	for _, r := range responses {
		desc := r.desc
		resp := &openapi3.Response{Description: &desc}
		if r.contentType != "" {
			schema := r.schema
			if r.component != "" {
				schema = &openapi3.SchemaRef{Ref: "#/components/schemas/" + r.component, Value: r.schema.Value}
				o.Extensions = map[string]any{"x-components": map[string]*openapi3.SchemaRef{r.component: r.schema}}
			}
			resp.Content = openapi3.Content{r.contentType: &openapi3.MediaType{Schema: schema}}
		}
		if r.headers != nil {
			resp.Headers = r.headers
		}
		o.Responses.Set(r.code, &openapi3.ResponseRef{Value: resp})
	}
	return o
}

type response struct {
	code        string
	desc        string
	contentType string
	schema      *openapi3.SchemaRef
	headers     openapi3.Headers
	component   string // the schema's name among the document's components ("" keeps it inline)
}

// jsonOf is a 2xx JSON answer with the schema of v, inline.
func jsonOf(code, desc string, v any) response {
	return response{code: code, desc: desc, contentType: "application/json", schema: schemaOf(v)}
}

// namedJSON is a 2xx JSON answer whose schema is the document's component name (clients get a type).
func namedJSON(code, desc, name string, v any) response {
	r := jsonOf(code, desc, v)
	r.component = name
	return r
}

// errorAnswer is an error answer with the {message} body.
func errorAnswer(code, desc string) response {
	return response{code: code, desc: desc, contentType: "application/json",
		schema: &openapi3.SchemaRef{Ref: "#/components/schemas/ErrorBody"}}
}

// tooMany is 429 with Retry-After.
func tooMany(desc string) response {
	r := errorAnswer("429", desc)
	r.headers = openapi3.Headers{"Retry-After": {Value: &openapi3.Header{Parameter: openapi3.Parameter{
		Description: "Segundos que faltan para poder intentarlo de nuevo.", Schema: openapi3.NewIntegerSchema().NewRef()}}}}
	return r
}

func binary(code, desc, contentType string) response {
	return response{code: code, desc: desc, contentType: contentType,
		schema: openapi3.NewStringSchema().WithFormat("binary").NewRef()}
}

func text(code, desc, contentType string) response {
	return response{code: code, desc: desc, contentType: contentType, schema: openapi3.NewStringSchema().NewRef()}
}

func empty(code, desc string) response { return response{code: code, desc: desc} }

func pathParam(name, desc, pattern string) *openapi3.ParameterRef {
	s := openapi3.NewStringSchema()
	if pattern != "" {
		s.Pattern = pattern
	}
	return &openapi3.ParameterRef{Value: openapi3.NewPathParameter(name).WithDescription(desc).WithSchema(s)}
}

func queryParam(name, desc string, required bool) *openapi3.ParameterRef {
	p := openapi3.NewQueryParameter(name).WithDescription(desc).WithSchema(openapi3.NewStringSchema())
	p.Required = required
	return &openapi3.ParameterRef{Value: p}
}

func headerParam(name, desc string, required bool) *openapi3.ParameterRef {
	p := openapi3.NewHeaderParameter(name).WithDescription(desc).WithSchema(openapi3.NewStringSchema())
	p.Required = required
	return &openapi3.ParameterRef{Value: p}
}

func params(ps ...*openapi3.ParameterRef) []*openapi3.ParameterRef { return ps }

// jsonBody documents a required JSON request body with the schema of v.
func jsonBody(v any) *openapi3.RequestBodyRef {
	return &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
		WithSchemaRef(schemaOf(v), []string{"application/json"})}
}

// schemaOf generates v's schema inline (plain routes' types are few and small).
func schemaOf(v any) *openapi3.SchemaRef {
	ref, err := openapi3gen.NewSchemaRefForValue(v, nil, openapi3gen.SchemaCustomizer(requiredFields))
	if err != nil {
		return openapi3.NewObjectSchema().NewRef()
	}
	return ref
}
