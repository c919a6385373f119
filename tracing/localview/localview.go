// Package localview receives traces over OTLP/HTTP and shows them as trees: the local trace viewer
// of `perfilseguro traces` (no package this machine can install is one, see docs/operations.md)
// and the collector the tracing tests run the real binaries against.
package localview

import (
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Span is one received span, flattened.
type Span struct {
	TraceID, SpanID, ParentID string
	Name, Kind, Service       string
	Start, End                time.Time
	Failed                    bool
	Attributes                map[string]string
	Links                     []string // span IDs this span is linked to
}

// Duration is how long the span took.
func (s Span) Duration() time.Duration { return s.End.Sub(s.Start) }

// Collector keeps the last spans it received (at most Max, 20,000 by default).
type Collector struct {
	Max   int
	mu    sync.Mutex
	spans []Span
}

// Spans returns a copy of what was received, oldest first.
func (c *Collector) Spans() []Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.spans)
}

// Trace returns the spans of one trace.
func (c *Collector) Trace(id string) []Span {
	var out []Span
	for _, s := range c.Spans() {
		if s.TraceID == id {
			out = append(out, s)
		}
	}
	return out
}

// ServeHTTP accepts OTLP/HTTP exports (POST /v1/traces, protobuf, optionally gzip) and shows the
// traces received on any other GET: the list, or one trace as a tree with ?trace=<id>.
func (c *Collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/traces":
		c.receive(w, r)
	case r.Method == http.MethodGet:
		c.show(w, r)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func (c *Collector) receive(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = http.MaxBytesReader(w, r.Body, 32<<20)
	if r.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = gz
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		http.Error(w, "only application/x-protobuf, not "+ct, http.StatusUnsupportedMediaType)
		return
	}
	var req collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.add(flatten(&req))
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func (c *Collector) add(spans []Span) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, spans...)
	limit := c.Max
	if limit <= 0 {
		limit = 20000
	}
	if over := len(c.spans) - limit; over > 0 {
		c.spans = slices.Delete(c.spans, 0, over)
	}
}

func flatten(req *collectortrace.ExportTraceServiceRequest) []Span {
	var out []Span
	for _, rs := range req.GetResourceSpans() {
		service := attrs(rs.GetResource().GetAttributes())["service.name"]
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				sp := Span{TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
					Name: s.GetName(), Kind: strings.TrimPrefix(s.GetKind().String(), "SPAN_KIND_"), Service: service,
					Start: time.Unix(0, int64(s.GetStartTimeUnixNano())), End: time.Unix(0, int64(s.GetEndTimeUnixNano())),
					Failed: s.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR, Attributes: attrs(s.GetAttributes())}
				if len(s.GetParentSpanId()) > 0 {
					sp.ParentID = hex.EncodeToString(s.GetParentSpanId())
				}
				for _, l := range s.GetLinks() {
					sp.Links = append(sp.Links, hex.EncodeToString(l.GetSpanId()))
				}
				out = append(out, sp)
			}
		}
	}
	return out
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		switch v := kv.GetValue().GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.GetKey()] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.GetKey()] = fmt.Sprint(v.IntValue)
		case *commonpb.AnyValue_BoolValue:
			m[kv.GetKey()] = fmt.Sprint(v.BoolValue)
		case *commonpb.AnyValue_DoubleValue:
			m[kv.GetKey()] = fmt.Sprint(v.DoubleValue)
		default:
			m[kv.GetKey()] = kv.GetValue().String()
		}
	}
	return m
}

// Tree renders one trace's spans as indented lines, children under their parent, by start time.
func Tree(spans []Span) string {
	children := map[string][]Span{}
	ids := map[string]bool{}
	for _, s := range spans {
		ids[s.SpanID] = true
	}
	for _, s := range spans {
		parent := s.ParentID
		if !ids[parent] {
			parent = "" // its parent is elsewhere (another process not exporting, or not yet received)
		}
		children[parent] = append(children[parent], s)
	}
	var b strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		list := children[parent]
		slices.SortFunc(list, func(a, b Span) int { return a.Start.Compare(b.Start) })
		for _, s := range list {
			mark := ""
			if s.Failed {
				mark = "  ✗"
			}
			fmt.Fprintf(&b, "%s%s  [%s %s] %s%s\n", strings.Repeat("  ", depth), s.Name, s.Service, strings.ToLower(s.Kind),
				s.Duration().Round(10*time.Microsecond), mark)
			walk(s.SpanID, depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

var page = template.Must(template.New("traces").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Trazas locales · Perfil Seguro</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}pre{background:#f4f4f5;padding:1rem;overflow:auto}
a{color:#1d4ed8}td{padding:.2rem .8rem .2rem 0}</style></head><body>
<h1>Trazas locales</h1>
{{if .Tree}}<p><a href="/">← todas</a> · traza <code>{{.ID}}</code></p><pre>{{.Tree}}</pre>
{{else}}<p>Las últimas trazas recibidas por OTLP/HTTP en <code>/v1/traces</code>, la más reciente primero.</p>
<table>{{range .List}}<tr><td><a href="/?trace={{.TraceID}}">{{.Name}}</a></td><td>{{.Service}}</td><td>{{.Spans}} tramos</td><td>{{.Start}}</td></tr>{{else}}<tr><td>Aún no llega ninguna traza.</td></tr>{{end}}</table>{{end}}
</body></html>`))

type summary struct {
	TraceID, Name, Service, Start string
	Spans                         int
}

func (c *Collector) show(w http.ResponseWriter, r *http.Request) {
	data := struct {
		ID, Tree string
		List     []summary
	}{}
	if id := r.URL.Query().Get("trace"); id != "" {
		data.ID, data.Tree = id, Tree(c.Trace(id))
	} else {
		byTrace := map[string]*summary{}
		var order []string
		for _, s := range c.Spans() {
			sum, ok := byTrace[s.TraceID]
			if !ok {
				sum = &summary{TraceID: s.TraceID}
				byTrace[s.TraceID] = sum
				order = append(order, s.TraceID)
			}
			sum.Spans++
			if s.ParentID == "" || sum.Name == "" {
				sum.Name, sum.Service, sum.Start = s.Name, s.Service, s.Start.Format("15:04:05.000")
			}
		}
		for i := len(order) - 1; i >= 0 && len(data.List) < 200; i-- {
			data.List = append(data.List, *byTrace[order[i]])
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	page.Execute(w, data)
}
