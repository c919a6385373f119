package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// The alerts (deploy/prometheus/alerts.yml) and the dashboard (deploy/grafana/perfilseguro.json)
// name metrics and routes; a rename in the code would leave them silently empty. This test
// scrapes the real /metrics, with every metric made to appear, and checks each name they use.

// notServedByUs are the names Prometheus itself adds to a scrape.
var notServedByUs = map[string]bool{"up": true}

// promQLWords are PromQL's keywords (functions are recognised by the parenthesis that follows).
var promQLWords = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true,
	"group_right": true, "and": true, "or": true, "unless": true, "bool": true, "offset": true, "inf": true, "nan": true}

var (
	promString     = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	promMatchers   = regexp.MustCompile(`\{[^}]*\}`)
	promRange      = regexp.MustCompile(`\[[^\]]*\]`)
	promGrouping   = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	grafanaVar     = regexp.MustCompile(`\$\{?\w+\}?`)
	promIdentifier = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?`)
	promRoute      = regexp.MustCompile(`route\s*(=~|!~|=|!=)\s*"([^"]*)"`)
)

// metricNames lists the metric names a PromQL expression reads.
func metricNames(expr string) []string {
	expr = grafanaVar.ReplaceAllString(expr, "")
	expr = promString.ReplaceAllString(expr, `""`)
	expr = promMatchers.ReplaceAllString(expr, " ")
	expr = promRange.ReplaceAllString(expr, " ")
	expr = promGrouping.ReplaceAllString(expr, " ")
	var names []string
	for _, m := range promIdentifier.FindAllStringSubmatch(expr, -1) {
		if m[1] != "" || promQLWords[strings.ToLower(m[0])] { // a function call, or a keyword
			continue
		}
		names = append(names, m[0])
	}
	return names
}

// alertExpressions reads the expr of every rule in alerts.yml (one line, or a block after "|").
func alertExpressions(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(raw), "\n")
	var exprs []string
	for i := 0; i < len(lines); i++ {
		rest, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "expr:")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if rest != "|" && rest != ">" {
			exprs = append(exprs, rest)
			continue
		}
		indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
		var block []string
		for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" ||
			len(lines[i+1])-len(strings.TrimLeft(lines[i+1], " ")) > indent) {
			i++
			block = append(block, lines[i])
		}
		exprs = append(exprs, strings.Join(block, "\n"))
	}
	require.NotEmpty(t, exprs, "no rule found in %s", path)
	return exprs
}

// dashboardExpressions collects every "expr" in the dashboard's JSON, wherever it sits.
func dashboardExpressions(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	var exprs []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if s, ok := child.(string); ok && k == "expr" {
					exprs = append(exprs, s)
				}
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(doc)
	require.NotEmpty(t, exprs, "no panel query found in %s", path)
	return exprs
}

// servedSeries lists the series names of a scrape (histograms as their _bucket, _sum and _count)
// and the route labels of its request counter.
func servedSeries(body string) (names map[string]bool, routes []string) {
	names = map[string]bool{}
	for _, line := range strings.Split(body, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name := line[:strings.IndexAny(line, "{ ")]
		names[name] = true
		if name == "perfilseguro_http_requests_total" {
			if m := regexp.MustCompile(`route="([^"]*)"`).FindStringSubmatch(line); m != nil {
				routes = append(routes, m[1])
			}
		}
	}
	return names, routes
}

func TestAlertsAndDashboardUseOnlyMetricsAndRoutesTheAPIServes(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) {
		d.Config.Apple.CertPEM = testCertificatePEM(t, time.Now().Add(90*24*time.Hour))
		d.Credentials = &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}} // its routes too
	})
	admin := e.adminClient(t)
	// Make every metric appear: a scheduler tick, a job waiting for its retry (which also makes
	// the queue exist), and a request to each route the rules and panels name.
	require.NoError(t, e.redis.HSet(t.Context(), jobs.SchedulerTicksKey, "heartbeat", time.Now().Unix()).Err())
	failOneJob(t, e, jobs.QueueCritical, jobs.TypeSendOTP)

	var exprs []string
	exprs = append(exprs, alertExpressions(t, "../deploy/prometheus/alerts.yml")...)
	exprs = append(exprs, dashboardExpressions(t, "../deploy/grafana/perfilseguro.json")...)
	routes := map[string]bool{}
	for _, expr := range exprs {
		for _, m := range promRoute.FindAllStringSubmatch(expr, -1) {
			for _, alt := range strings.Split(m[2], "|") {
				routes[alt] = true
			}
		}
	}
	for route := range routes {
		method, path, ok := strings.Cut(route, " ")
		if !ok { // a pattern without a method (asynqmon's subtree)
			method, path = http.MethodGet, route
		}
		path = strings.ReplaceAll(path, ".*", "1")
		path = regexp.MustCompile(`\{\w+\}`).ReplaceAllString(path, "1")
		e.send(t, admin, method, path, nil)
	}

	served, servedRoutes := servedSeries(scrapeMetrics(t, e, admin))
	var missing []string
	for _, expr := range exprs {
		for _, name := range metricNames(expr) {
			if !served[name] && !notServedByUs[name] {
				missing = append(missing, name+" (in: "+strings.Join(strings.Fields(expr), " ")+")")
			}
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "metrics named by the alerts or the dashboard that /metrics does not serve")
	for route := range routes {
		re := regexp.MustCompile("^(?:" + route + ")$")
		found := false
		for _, r := range servedRoutes {
			found = found || re.MatchString(r)
		}
		require.True(t, found, "route %q named by the alerts or the dashboard is no route of the API (served: %v)", route, servedRoutes)
	}
}

func TestMetricNamesAreReadOffPromQL(t *testing.T) {
	t.Parallel()
	got := metricNames(`histogram_quantile(0.99, sum by (le) (rate(perfilseguro_http_request_duration_seconds_bucket{route!~"GET /a|b"}[5m]))) > 0.05
		and on() time() - max(perfilseguro_scheduler_last_tick_timestamp_seconds) > 180 or absent(up{job="x"}) / ${datasource}`)
	require.Equal(t, []string{"perfilseguro_http_request_duration_seconds_bucket", "perfilseguro_scheduler_last_tick_timestamp_seconds", "up"}, got)
}

// Every alert points at its own runbook section: a heading with its name in docs/alerts.md.
func TestEveryAlertHasItsRunbook(t *testing.T) {
	t.Parallel()
	rules, err := os.ReadFile("../deploy/prometheus/alerts.yml")
	require.NoError(t, err)
	doc, err := os.ReadFile("../docs/alerts.md")
	require.NoError(t, err)
	alerts := regexp.MustCompile(`(?m)^\s*- alert: (\w+)$`).FindAllStringSubmatch(string(rules), -1)
	runbooks := regexp.MustCompile(`(?m)^\s*runbook: "docs/alerts\.md#([\w-]+)"$`).FindAllStringSubmatch(string(rules), -1)
	require.NotEmpty(t, alerts)
	require.Len(t, runbooks, len(alerts), "one runbook annotation per alert")
	for i, a := range alerts {
		require.Equal(t, strings.ToLower(a[1]), runbooks[i][1], "the runbook anchor of %s", a[1])
		require.Contains(t, string(doc), "\n### "+a[1]+"\n", "docs/alerts.md has no section for %s", a[1])
	}
}
