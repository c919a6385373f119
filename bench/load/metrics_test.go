package load

import (
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"
)

// loginHistogram reads the cumulative counts of the API's own request-duration histogram for
// POST /api/login from its /metrics, by bucket upper bound (seconds).
func loginHistogram(b *testing.B, metricsURL string) map[float64]float64 {
	b.Helper()
	res, err := http.Get(metricsURL)
	require.NoError(b, err)
	defer res.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(res.Body)
	require.NoError(b, err)
	buckets := map[float64]float64{}
	family := families["perfilseguro_http_request_duration_seconds"]
	if family == nil {
		return buckets
	}
	for _, m := range family.GetMetric() {
		login := false
		for _, l := range m.GetLabel() {
			if l.GetName() == "route" && strings.HasSuffix(l.GetValue(), "/api/login") {
				login = true
			}
		}
		if !login {
			continue
		}
		for _, bk := range m.GetHistogram().GetBucket() {
			buckets[bk.GetUpperBound()] += float64(bk.GetCumulativeCount())
		}
	}
	return buckets
}

// histogramQuantile estimates the q-quantile of the requests observed between two readings, by
// linear interpolation inside the bucket, as Prometheus's histogram_quantile does.
func histogramQuantile(q float64, before, after map[float64]float64) float64 {
	bounds := make([]float64, 0, len(after))
	for le := range after {
		bounds = append(bounds, le)
	}
	sort.Float64s(bounds)
	if len(bounds) == 0 {
		return math.NaN()
	}
	total := after[bounds[len(bounds)-1]] - before[bounds[len(bounds)-1]]
	rank, lower, below := q*total, 0.0, 0.0
	for _, le := range bounds {
		count := after[le] - before[le]
		if count >= rank {
			if math.IsInf(le, 1) {
				return lower
			}
			return lower + (le-lower)*(rank-below)/(count-below)
		}
		lower, below = le, count
	}
	return lower
}

func TestHistogramQuantileInterpolatesInsideTheBucket(t *testing.T) {
	before := map[float64]float64{0.01: 5, 0.05: 5, 0.1: 5, math.Inf(1): 5}
	after := map[float64]float64{0.01: 55, 0.05: 95, 0.1: 105, math.Inf(1): 105} // 100 new: 50 ≤ 10 ms, 40 ≤ 50 ms, 10 ≤ 100 ms
	require.InDelta(t, 0.01, histogramQuantile(0.5, before, after), 1e-9)
	require.InDelta(t, 0.03, histogramQuantile(0.7, before, after), 1e-9) // 20 of the 40 in (10, 50] ms
	require.InDelta(t, 0.095, histogramQuantile(0.99, before, after), 1e-9)
}

// gauge reads one unlabelled gauge from a /metrics page (NaN when absent or unreachable).
func gauge(metricsURL, name string) float64 {
	res, err := http.Get(metricsURL)
	if err != nil {
		return math.NaN()
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return math.NaN()
}

// watchLimit samples the admission limit every 200 ms until stop; it returns the samples' min,
// median and max, for the report (what the limiter settled on at that rate).
func watchLimit(metricsURL string, stop <-chan struct{}) (lo, mid, hi float64) {
	var seen []float64
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			if len(seen) == 0 {
				return
			}
			sort.Float64s(seen)
			return seen[0], seen[len(seen)/2], seen[len(seen)-1]
		case <-tick.C:
			if v := gauge(metricsURL, "perfilseguro_admission_limit"); !math.IsNaN(v) {
				seen = append(seen, v)
			}
		}
	}
}
