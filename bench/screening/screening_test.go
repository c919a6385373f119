// Package screening_test is `make bench-screening`: it generates a list of 100,000 entries with
// aliases (names drawn Zipf-like from Mexican and international name lists), builds the
// screening index, and reports the memory the list and its index take, the latency of
// screening one person (10,000 lookups, p50/p99/max) and the time to re-screen 100,000 people.
// It runs only with BENCH_SCREENING=1 and appends its results to BENCHMARKS.md.
package screening_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/screening"
)

const (
	listSize  = 100_000
	threshold = 0.7
	targetP99 = 50 * time.Millisecond
)

// lookups and rescreened can be lowered for a quick look (BENCH_SCREENING_LOOKUPS,
// BENCH_SCREENING_RESCREEN); the recorded run uses the defaults.
var (
	lookups    = envInt("BENCH_SCREENING_LOOKUPS", 10_000)
	rescreened = envInt("BENCH_SCREENING_RESCREEN", 100_000)
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// zipfExponent shapes the name frequencies: with 0.6 the most frequent surname is about 6% of
// the Mexican entries (Hernández is about 4 to 5% of surnames in Mexico), a harder list than
// the real one for an index, since namesakes crowd the same keys.
const zipfExponent = 0.6

// zipf draws an index of a list of n names, the first the most frequent.
type zipf struct{ cum []float64 }

func newZipf(n int) zipf {
	z := zipf{cum: make([]float64, n)}
	sum := 0.0
	for i := range n {
		sum += 1 / math.Pow(float64(i+1), zipfExponent)
		z.cum[i] = sum
	}
	for i := range z.cum {
		z.cum[i] /= sum
	}
	return z
}

func (z zipf) draw(r *rand.Rand) int {
	i, _ := slices.BinarySearch(z.cum, r.Float64())
	return min(i, len(z.cum)-1)
}

type generator struct {
	r                  *rand.Rand
	mxG, mxS, inG, inS zipf
}

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		mxG: newZipf(len(mxGiven)), mxS: newZipf(len(mxSurnames)), inG: newZipf(len(intlGiven)), inS: newZipf(len(intlSurnames))}
}

// person is a generated name: given names and surnames.
func (g *generator) person() (given, surnames string, intl bool) {
	if g.r.IntN(10) < 6 {
		given = mxGiven[g.mxG.draw(g.r)]
		if g.r.IntN(2) == 0 {
			given += " " + mxGiven[g.mxG.draw(g.r)]
		}
		return given, mxSurnames[g.mxS.draw(g.r)] + " " + mxSurnames[g.mxS.draw(g.r)], false
	}
	given = intlGiven[g.inG.draw(g.r)]
	if g.r.IntN(3) == 0 {
		given += " " + intlGiven[g.inG.draw(g.r)]
	}
	return given, intlSurnames[g.inS.draw(g.r)], true
}

func (g *generator) birth() []screening.BirthDate {
	y := 1940 + g.r.IntN(65)
	switch k := g.r.IntN(20); {
	case k < 14:
		return []screening.BirthDate{{Date: fmt.Sprintf("%d-%02d-%02d", y, 1+g.r.IntN(12), 1+g.r.IntN(28))}}
	case k < 17:
		return []screening.BirthDate{{Year: y}}
	case k < 18:
		return []screening.BirthDate{{FromYear: y, ToYear: y + 2}}
	}
	return nil
}

func (g *generator) entry(i int) screening.Entry {
	given, surnames, intl := g.person()
	e := screening.Entry{ID: fmt.Sprint(8_000_000 + i), Kind: screening.EntryPerson, Name: given + " " + surnames,
		BirthDates: g.birth(), Reference: fmt.Sprintf("BXi.%d", i)}
	for range g.r.IntN(4) { // 0 to 3 aliases, as the UN list's entries have
		switch g.r.IntN(4) {
		case 0:
			e.Aliases = append(e.Aliases, screening.Alias{Name: surnames + ", " + given})
		case 1:
			e.Aliases = append(e.Aliases, screening.Alias{Name: strings.Fields(given)[0] + " " + strings.Fields(surnames)[0]})
		case 2:
			e.Aliases = append(e.Aliases, screening.Alias{Name: nicknames[g.r.IntN(len(nicknames))], Low: true})
		default:
			g2, s2, _ := g.person()
			e.Aliases = append(e.Aliases, screening.Alias{Name: g2 + " " + s2})
		}
	}
	if intl {
		if c, ok := cyrillicOf[surnames]; ok {
			e.OriginalName = c
		}
	}
	return e
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// probe is a person screened: half are listed people (some written differently), half not.
func (g *generator) probe(entries []screening.Entry) screening.Person {
	if g.r.IntN(2) == 0 {
		given, surnames, _ := g.person()
		return screening.Person{GivenNames: given, Surnames: surnames,
			BirthDate: time.Date(1940+g.r.IntN(65), time.Month(1+g.r.IntN(12)), 1+g.r.IntN(28), 0, 0, 0, 0, time.UTC)}
	}
	e := entries[g.r.IntN(len(entries))]
	name := e.Name
	switch g.r.IntN(3) {
	case 0: // reordered: surnames first, as the INE prints them
		w := strings.Fields(name)
		name = strings.Join(append(w[len(w)/2:], w[:len(w)/2]...), " ")
	case 1: // without accents, upper case
		name = strings.ToUpper(strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "Á", "A", "É", "E", "Í", "I", "Ó", "O", "Ú", "U").Replace(name))
	}
	return screening.Person{Name: name}
}

func TestScreeningBenchmark(t *testing.T) {
	if os.Getenv("BENCH_SCREENING") != "1" {
		t.Skip("set BENCH_SCREENING=1 (make bench-screening)")
	}
	g := newGenerator(53)
	base := heap()
	entries := make([]screening.Entry, listSize)
	aliases := 0
	for i := range entries {
		entries[i] = g.entry(i)
		aliases += len(entries[i].Aliases)
	}
	listBytes := heap() - base

	start := time.Now()
	ix := screening.NewIndex([]screening.ListVersion{{ListID: 1, Name: "generated", Kind: screening.KindUN, Version: 1, Entries: entries}})
	build := time.Since(start)
	indexBytes := heap() - base - listBytes
	nEntries, nNames := ix.Size()
	require.Equal(t, listSize, nEntries)

	if p := os.Getenv("BENCH_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		require.NoError(t, err)
		require.NoError(t, pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	// One person at a time, as an operation's screening is.
	probes := newGenerator(7)
	lat := make([]time.Duration, lookups)
	found, candidates := 0, 0
	for i := range lookups {
		p := probes.probe(entries)
		t0 := time.Now()
		cs := ix.Screen(p, threshold)
		lat[i] = time.Since(t0)
		candidates += len(cs)
		if len(cs) > 0 {
			found++
		}
	}
	slices.Sort(lat)
	p50, p99, worst := lat[lookups/2], lat[lookups*99/100], lat[lookups-1]

	// Re-screening every file after a list update: background work on every core.
	people := make([]screening.Person, rescreened)
	rg := newGenerator(11)
	for i := range people {
		people[i] = rg.probe(entries)
	}
	workers := runtime.NumCPU()
	var next, hits atomic.Int64
	var wg sync.WaitGroup
	start = time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(people)) {
					return
				}
				if len(ix.Screen(people[i], threshold)) > 0 {
					hits.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	rescreen := time.Since(start)

	t.Logf("list %d entries (%d aliases, %d names indexed); list %.1f MB, index %.1f MB, build %v",
		nEntries, aliases, nNames, mb(listBytes), mb(indexBytes), build)
	t.Logf("one person: p50 %v p99 %v max %v; %d of %d found, %.1f candidates on average", p50, p99, worst, found, lookups, float64(candidates)/float64(lookups))
	t.Logf("re-screen %d people on %d workers: %v", rescreened, workers, rescreen)

	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	load, _ := os.ReadFile("/proc/loadavg")
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n## Screening: a generated list of 100,000 entries, %s, commit %s\n\n", time.Now().UTC().Format("2006-01-02"), strings.TrimSpace(string(commit)))
	fmt.Fprintf(&sb, "`make bench-screening` (bench/screening): %d entries with %d aliases (names drawn Zipf-like from Mexican and "+
		"international name lists; 70%% exact birth dates, 15%% a year, 5%% a range), %d names indexed; %d cores, load average %s.\n\n",
		nEntries, aliases, nNames, runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	sb.WriteString("| measure | result | target |\n|---|---:|---|\n")
	fmt.Fprintf(&sb, "| memory of the entries (heap after GC) | %.1f MB | reported |\n", mb(listBytes))
	fmt.Fprintf(&sb, "| memory of the index over them | %.1f MB | reported |\n", mb(indexBytes))
	fmt.Fprintf(&sb, "| building the index | %v | |\n", build.Round(time.Millisecond))
	fmt.Fprintf(&sb, "| screening one person, p50 (%d lookups, half listed people written differently) | %v | |\n", lookups, p50.Round(time.Microsecond))
	fmt.Fprintf(&sb, "| screening one person, p99 | **%v** | ≤ 50 ms |\n", p99.Round(time.Microsecond))
	fmt.Fprintf(&sb, "| screening one person, max | %v | |\n", worst.Round(time.Microsecond))
	fmt.Fprintf(&sb, "| re-screening %d people (%d goroutines) | **%v** (%.0f people/s) | ≤ 10 min |\n", rescreened, workers,
		rescreen.Round(time.Millisecond), float64(rescreened)/rescreen.Seconds())
	fmt.Fprintf(&sb, "\nThreshold %.2f: %d of %d lookups had a candidate (%.1f candidates per lookup); %d of %d re-screened people. "+
		"In-process: the index is a library the worker holds, so there is no server to measure from outside; the API's "+
		"public-lookup p99 beside a re-screen is not measured here (issue 53 asks for it once re-screening runs in the worker).\n",
		threshold, found, lookups, float64(candidates)/float64(lookups), hits.Load(), rescreened)
	path := os.Getenv("BENCH_OUT")
	if path == "" {
		path = "../../BENCHMARKS.md"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString(sb.String())
	require.NoError(t, err)
	t.Logf("results appended to %s", path)
	require.LessOrEqual(t, p99, targetP99, "p99 of one screening")
	runtime.KeepAlive(entries)
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
