package podjson

// ArgsMemo: the dockerStartCmd of a list's pods written once per distinct
// args. Splitting args into words (appendPodArgs) is the largest piece of
// writing a v1 pod (a tenth of the streamed 100-pod list, decoding
// included), and the pods of one account mostly share a few args: those
// of the templates they were made from. A list written with an ArgsMemo
// splits each distinct args once and copies its dockerStartCmd for the
// next pods that have the same args: the same bytes, since dockerStartCmd
// is a function of args alone.

// argsMemoLen is how many distinct args an ArgsMemo keeps: the last ones
// split, the oldest replaced first. A few, as lists interleave the pods
// of a few templates (GPU pods and CPU pods, say); a miss compares args
// with each, which for args of another length is one comparison.
const argsMemoLen = 4

// maxMemoArgs bounds the args an ArgsMemo keeps (longer ones are split
// every time), so that a list of unusual pods does not make the memory
// that a pooled memo holds grow.
const maxMemoArgs = 1 << 10

// ArgsMemo keeps the dockerStartCmd of the last args its AppendV1PodOf
// split. The zero value is empty and ready; Reset empties it. Not for
// concurrent use: one list at a time.
type ArgsMemo struct {
	entries [argsMemoLen]argsMemoEntry
	next    int // the entry replaced next
}

type argsMemoEntry struct {
	used bool
	args []byte // a copy: a pod's strings share a window the next pod overwrites
	cmd  []byte // `,"dockerStartCmd":…` as AppendV1PodOf writes it for args
}

// AppendV1PodOf is the package's AppendV1PodOf (the same bytes), the
// dockerStartCmd of args m has seen copied from m instead of split again.
func (m *ArgsMemo) AppendV1PodOf(b []byte, p *V2Pod) []byte {
	return appendV1PodOf(b, p, m)
}

// Reset empties m; its buffers are kept for the next list.
func (m *ArgsMemo) Reset() {
	for i := range m.entries {
		e := &m.entries[i]
		e.used, e.args, e.cmd = false, e.args[:0], e.cmd[:0]
	}
	m.next = 0
}

// appendPodArgs is the package's appendPodArgs after another member (the
// pod's containerRegistryAuthId), through m.
func (m *ArgsMemo) appendPodArgs(b []byte, args string) []byte {
	for i := range m.entries {
		if e := &m.entries[i]; e.used && string(e.args) == args {
			return append(b, e.cmd...)
		}
	}
	start := len(b)
	w := jw{b: b}
	b = appendPodArgs(&w, args)
	if len(args) <= maxMemoArgs {
		e := &m.entries[m.next]
		e.used = true
		e.args = append(e.args[:0], args...)
		e.cmd = append(e.cmd[:0], b[start:]...)
		m.next = (m.next + 1) % argsMemoLen
	}
	return b
}
