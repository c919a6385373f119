package credential

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// draftStatuses is the example list of draft-ietf-oauth-status-list §4.1 (1 bit per entry).
var draftStatuses = []bool{true, false, false, true, true, true, false, true, true, true, false, false, false, true, false, true}

// draftLst is the draft's encoding of that list (zlib's own deflate, best compression).
const draftLst = "eNrbuRgAAhcBXQ"

// inflate undoes Encode's base64url and ZLIB layers.
func inflate(t *testing.T, lst string) []byte {
	t.Helper()
	compressed, err := base64.RawURLEncoding.DecodeString(lst)
	require.NoError(t, err)
	r, err := zlib.NewReader(bytes.NewReader(compressed))
	require.NoError(t, err)
	raw, err := io.ReadAll(r)
	require.NoError(t, err)
	return raw
}

func TestStatusListMatchesDraftExample(t *testing.T) {
	t.Parallel()
	l := NewStatusList(len(draftStatuses))
	for i, invalid := range draftStatuses {
		require.NoError(t, l.Set(i, invalid))
	}
	require.Equal(t, []byte{0xB9, 0xA3}, l.bits)

	lst, err := l.Encode()
	require.NoError(t, err)
	// Go's compress/flate ends the stream with an empty final block, so the bytes differ from
	// the draft's (made with C zlib) while the content is the same; compare what they carry.
	require.Equal(t, []byte{0xB9, 0xA3}, inflate(t, lst))
	require.Equal(t, inflate(t, draftLst), inflate(t, lst))
	compressed, err := base64.RawURLEncoding.DecodeString(lst)
	require.NoError(t, err)
	require.Equal(t, []byte{0x78, 0xDA}, compressed[:2], "ZLIB header of deflate at best compression")

	for _, encoded := range []string{draftLst, lst} {
		decoded, err := DecodeStatusList(encoded, 1)
		require.NoError(t, err)
		require.Equal(t, 16, decoded.Len())
		for i, want := range draftStatuses {
			got, err := decoded.Get(i)
			require.NoError(t, err)
			require.Equal(t, want, got, "entry %d of %s", i, encoded)
		}
	}
}

func TestStatusListBounds(t *testing.T) {
	t.Parallel()
	l := NewStatusList(13)
	require.Equal(t, 16, l.Len(), "rounded up to whole bytes")
	require.NoError(t, l.Set(15, true))
	require.Error(t, l.Set(16, true))
	require.Error(t, l.Set(-1, true))
	_, err := l.Get(16)
	require.Error(t, err)

	got, err := l.Get(15)
	require.NoError(t, err)
	require.True(t, got)
	require.NoError(t, l.Set(15, false))
	got, err = l.Get(15)
	require.NoError(t, err)
	require.False(t, got, "an entry can be set valid again")
	require.Equal(t, 0, NewStatusList(-5).Len())
}

func TestLargeStatusListStaysSmall(t *testing.T) {
	t.Parallel()
	l := NewStatusList(100_000)
	revoked := []int{0, 7, 12_345, 50_000, 99_999}
	for _, idx := range revoked {
		require.NoError(t, l.Set(idx, true))
	}
	lst, err := l.Encode()
	require.NoError(t, err)
	require.Less(t, len(lst), 256, "12,500 bytes of mostly zeros compress to a few dozen")

	decoded, err := DecodeStatusList(lst, 1)
	require.NoError(t, err)
	require.Equal(t, 100_000, decoded.Len())
	count := 0
	for i := range decoded.Len() {
		invalid, err := decoded.Get(i)
		require.NoError(t, err)
		if invalid {
			count++
		}
	}
	require.Equal(t, len(revoked), count)
	invalid, err := decoded.Get(12_345)
	require.NoError(t, err)
	require.True(t, invalid)
}

func TestDecodeStatusListRefusesBadInput(t *testing.T) {
	t.Parallel()
	_, err := DecodeStatusList(draftLst, 2)
	require.ErrorIs(t, err, ErrMalformed)
	_, err = DecodeStatusList("!!!", 1)
	require.ErrorIs(t, err, ErrMalformed)
	_, err = DecodeStatusList(base64.RawURLEncoding.EncodeToString([]byte("not zlib")), 1)
	require.ErrorIs(t, err, ErrMalformed)
}

func TestStatusListConcurrentUse(t *testing.T) {
	t.Parallel()
	l := NewStatusList(1024)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < 1024; i += 8 {
				assert.NoError(t, l.Set(i, true)) // assert: require must not stop a test from another goroutine
				if i%64 == w {
					_, err := l.Encode()
					assert.NoError(t, err)
				}
			}
		})
	}
	wg.Wait()
	decoded := inflate(t, mustEncode(t, l))
	require.Equal(t, bytes.Repeat([]byte{0xFF}, 128), decoded)
}

// mustEncode is Encode that fails the test on error.
func mustEncode(t *testing.T, l *StatusList) string {
	t.Helper()
	lst, err := l.Encode()
	require.NoError(t, err)
	return lst
}
