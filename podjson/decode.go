package podjson

import (
	"errors"
	"strconv"
	"sync"
	"unsafe"
)

// The pod list is the gateway's hot path (GET /v1/pods, docs/design.md §10).
// encoding/json spends most of its time validating, reflecting and
// allocating; this file decodes v2 pods with the hand-written scanner of
// scanner.go, and encode.go encodes v1 pods by appending to one buffer.
// Both are checked against encoding/json (same result on every fixture,
// and under fuzzing; see rpod_test.go and stream_test.go).
//
// Decoded strings are substrings of one copy of the answer (no allocation
// per field); env and ports are kept as raw JSON and copied to the v1
// answer unchanged (v2 env/ports and v1 env/ports have the same shape).

// resetPodStorage makes the storage of the previous pod available to the
// next one (stream mode: the previous pod is no longer used).
func (r *jreader) resetPodStorage() {
	r.gpus.buf = r.gpus.buf[:0]
	r.cpus.buf = r.cpus.buf[:0]
	r.mounts_.buf = r.mounts_.buf[:0]
	r.rts.buf = r.rts.buf[:0]
	r.ports = r.ports[:0]
	r.scratch = r.scratch[:0]
}

// PodStorage is where a jreader puts the parts of the pods it decodes:
// chunked storage for the small structs of many pods (one allocation per
// chunk instead of one per pod); in stream mode, net is the reused buffer
// of network mounts and scratch that of strings with escapes
// (reuseStrings). A stream reuses it for each pod (resetPodStorage); a
// caller that streams many answers keeps one for the next stream
// (PodStream.InitReader, PodStream.Release) and empties it with Clear
// before it keeps it.
type PodStorage struct {
	gpus    slab[V2PodGPU]
	cpus    slab[V2PodCPU]
	mounts_ slab[V2PersistentMount]
	rts     slab[V2PodRuntime]
	ports   []V2RuntimePort
	net     []V2NetworkMount
	scratch []byte
}

// Past these sizes a buffer of a PodStorage is dropped by Clear, not kept.
const (
	maxKeptPorts        = 1024
	maxKeptNetMounts    = 64
	maxKeptScratchBytes = 64 << 10
)

// Clear empties st for another reader: no element keeps a reference
// (to strings of an answer, to other storage), and a buffer grown past
// what usual pods need is dropped.
func (st *PodStorage) Clear() {
	st.gpus.clear()
	st.cpus.clear()
	st.mounts_.clear()
	st.rts.clear()
	st.ports = keepCleared(st.ports, maxKeptPorts)
	st.net = keepCleared(st.net, maxKeptNetMounts)
	st.scratch = keepEmpty(st.scratch, maxKeptScratchBytes)
}

// slab hands out pointers to elements of chunks that never grow in place,
// so that the pointers stay valid.
type slab[T any] struct{ buf []T }

// clear empties the current chunk and zeroes its elements (earlier
// chunks are left to the elements handed out from them).
func (s *slab[T]) clear() { s.buf = keepCleared(s.buf, cap(s.buf)) }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 32)
	}
	s.buf = s.buf[:len(s.buf)+1]
	e := &s.buf[len(s.buf)-1]
	// Zeroed: in stream mode the element held the previous pod's part,
	// and a part given only in part must not keep its values.
	var zero T
	*e = zero
	return e
}

// DecodePodList decodes a v2 ListPodsResponse ({"pods": [...]}, required).
func DecodePodList(b []byte) ([]V2Pod, error) {
	return newJReader(b).podList(nil)
}

// DecodePodListInto is DecodePodList decoding into the room of pods
// (emptied first) and into st's storage, which the pods then use: a caller
// that decodes list after list keeps both for the next list, emptied
// (clear of the pods, st.Clear) once nothing reads the pods any more.
func DecodePodListInto(b []byte, pods []V2Pod, st *PodStorage) ([]V2Pod, error) {
	r := newJReader(b)
	r.PodStorage = *st
	// Strings with escapes go to st's scratch too: it is only appended to
	// while the list is decoded, so each string keeps its bytes until the
	// caller empties st.
	r.reuseStrings = true
	pods, err := r.podList(pods[:0])
	*st = r.PodStorage
	return pods, err
}

// podList decodes a ListPodsResponse into pods' room (nil: a new list).
func (r *jreader) podList(pods []V2Pod) ([]V2Pod, error) {
	b := r.b
	seen := false
	if r.beginObject() {
		first := true
		for k, ok := r.nextKey(&first); ok; k, ok = r.nextKey(&first) {
			if k != "pods" {
				r.skip()
				continue
			}
			seen = true
			pods = pods[:0]
			if r.null() {
				continue
			}
			if pods == nil {
				pods = make([]V2Pod, 0, len(b)/600+1)
			}
			if !r.beginArray() {
				break
			}
			fa := true
			for r.nextElem(&fa) {
				pods = append(pods, V2Pod{})
				if r.pod(&pods[len(pods)-1]); r.err != nil {
					r.err = podErr(len(pods)-1, r.err)
				}
			}
		}
	}
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	if !seen {
		return nil, errors.New("no pods property")
	}
	return pods, nil
}

// podBox is a pod with room for its parts: one allocation for a single pod
// instead of one per part (and chunks sized for lists).
type podBox struct {
	p   V2Pod
	gpu [1]V2PodGPU
	cpu [1]V2PodCPU
	pm  [1]V2PersistentMount
	rt  [1]V2PodRuntime
	// The runtime's ports: most pods expose a few (list chunks are 128).
	ports [4]V2RuntimePort
}

// learnedKeyOrders keeps the key orders of the pods DecodePod read last.
// A single pod has no earlier pod of its own to predict its keys from
// (fieldKey), but every v2 answer lists them in one order: without this,
// each GET of one pod would look every key up the slow way. The orders
// are only a guess, checked key by key, so what a pod decodes to never
// depends on them.
var learnedKeyOrders sync.Pool // *keyOrders

// DecodePod decodes one v2 Pod.
func DecodePod(b []byte) (*V2Pod, error) {
	// unsafe: a string view of b, valid while b is not written (answers are read once); FuzzPodListDecode, translate's FuzzV2AnswerMapping.
	r := jreader{b: b, s: unsafe.String(unsafe.SliceData(b), len(b))}
	ko := r.takeKeyOrders()
	box := new(podBox)
	r.gpus.buf, r.cpus.buf, r.mounts_.buf, r.rts.buf = box.gpu[:0], box.cpu[:0], box.pm[:0], box.rt[:0]
	r.ports = box.ports[:0]
	r.pod(&box.p)
	r.giveKeyOrders(ko)
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	return &box.p, nil
}

// takeKeyOrders starts r from the key orders learnt last
// (learnedKeyOrders), so that even the first pod it reads has its keys
// recognised by place; giveKeyOrders hands r's orders, in the *keyOrders
// taken, to the next reader.
func (r *jreader) takeKeyOrders() *keyOrders {
	ko, _ := learnedKeyOrders.Get().(*keyOrders)
	if ko == nil {
		ko = new(keyOrders)
	}
	r.keyOrders = *ko
	return ko
}

func (r *jreader) giveKeyOrders(ko *keyOrders) {
	*ko = r.keyOrders
	learnedKeyOrders.Put(ko)
}

// intern returns a constant for common enum values (no allocation).
func internPodEnum(s string) string {
	switch s {
	case "RUNNING":
		return "RUNNING"
	case "EXITED":
		return "EXITED"
	case "PROVISIONING":
		return "PROVISIONING"
	case "STARTING":
		return "STARTING"
	case "ERROR":
		return "ERROR"
	case "TERMINATED":
		return "TERMINATED"
	case "SECURE":
		return "SECURE"
	case "COMMUNITY":
		return "COMMUNITY"
	}
	return s
}

// Members of the objects decoded on the hot path are recognised by field
// number, not by key string. Each kind of object (pod, runtime, runtime
// port, gpu, cpu) has a table of its keys in their JSON form, `"key":`,
// indexed by field number; a keyOrder remembers the order in which the
// previous object of that kind listed its keys. Every object of one list
// comes from the same encoder, so the next object's keys come in the same
// order and each is recognised by one comparison — no scanning of the key,
// no switch over strings. A key that does not come in the expected place
// (the first object, a reordered or unknown key, whitespace, escapes) is
// read the general way (nextKey) and looked up in the table; the
// semantics are the same either way: exact keys, the last duplicate wins,
// unknown keys are skipped.

// Fields of a v2 Pod.
const (
	pfID uint8 = iota + 1
	pfName
	pfStatus
	pfImage
	pfArgs
	pfDisk
	pfMounts
	pfPorts
	pfEnv
	pfRegistry
	pfCloud
	pfDataCenterID
	pfGPU
	pfCPU
	pfTemplate
	pfCost
	pfLocked
	pfRuntime
	pfCreatedAt
	pfStartedAt
	// Keys v1 has no use for, listed so that they are recognised by
	// place as well (their values are skipped).
	pfActions
	pfCudaVersion
	pfSSH
	pfGlobalNetworking
	pfCount // the closing brace (closeKeyLit)
)

var podKeyLits = func() keyTable {
	t := make(keyTable, pfCount+1)
	t[0] = noKeyLit
	t[pfCount] = closeKeyLit(pfCount)
	for f, k := range map[uint8]string{
		pfID: "id", pfName: "name", pfStatus: "status", pfImage: "image", pfArgs: "args",
		pfDisk: "disk", pfMounts: "mounts", pfPorts: "ports", pfEnv: "env", pfRegistry: "registry",
		pfCloud: "cloud", pfDataCenterID: "dataCenterId", pfGPU: "gpu", pfCPU: "cpu",
		pfTemplate: "template", pfCost: "cost", pfLocked: "locked", pfRuntime: "runtime",
		pfCreatedAt: "createdAt", pfStartedAt: "startedAt", pfActions: "actions",
		pfCudaVersion: "cudaVersion", pfSSH: "ssh", pfGlobalNetworking: "globalNetworking",
	} {
		t[f] = newKeyLit(k, f)
	}
	return t
}()

func (r *jreader) pod(p *V2Pod) {
	if !r.beginFields(&r.podKeys) {
		return
	}
	r.podField = 0
	for {
		// fieldKey, its fast path inline (see there).
		var f uint8
		if v := r.podKeys.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
			f = r.takeKey(&r.podKeys, v)
		} else {
			// An error in the value of the field read last is
			// named here, not after each value: an error leaves
			// r.i at the end of the input, where no key matches.
			if r.err != nil {
				if f := r.podField; f != 0 {
					// "gpu: expected an object at byte 812".
					lit := podKeyLits[f].s
					r.err = errors.New(lit[1:len(lit)-2] + ": " + r.err.Error())
				}
				return
			}
			var ok bool
			if f, ok = r.fieldKey(&r.podKeys, podKeyLits); !ok {
				return
			}
		}
		// (In r, not in a variable of the loop: the compiler would
		// keep that one in a register, to load again after each
		// value.)
		r.podField = f
		switch f {
		case pfID:
			p.ID = r.str()
		case pfName:
			p.Name = r.str()
		case pfStatus:
			p.Status = internPodEnum(r.str())
		case pfImage:
			p.Image = r.str()
		case pfArgs:
			p.Args = r.str()
		case pfDisk:
			p.Disk = r.integer()
		case pfMounts:
			p.Mounts = V2Mounts{}
			if !r.null() {
				r.mounts(&p.Mounts)
			}
		case pfPorts:
			p.Ports = r.rawOrNil()
		case pfEnv:
			p.Env = r.rawOrNil()
		case pfRegistry:
			p.Registry = r.strOrNull()
		case pfCloud:
			p.Cloud = internPodEnum(r.str())
		case pfDataCenterID:
			p.DataCenterID = r.strOrNull()
		case pfGPU:
			p.GPU = nil
			if !r.null() {
				p.GPU = r.gpus.new()
				r.gpu(p.GPU)
			}
		case pfCPU:
			p.CPU = nil
			if !r.null() {
				p.CPU = r.cpus.new()
				r.cpu(p.CPU)
			}
		case pfTemplate:
			p.Template = r.strOrNull()
		case pfCost:
			p.Cost = r.float()
		case pfLocked:
			p.Locked = r.boolean()
		case pfRuntime:
			p.Runtime = nil
			if !r.null() {
				p.Runtime = r.rts.new()
				r.runtime(p.Runtime)
			}
		case pfCreatedAt:
			p.CreatedAt = r.str()
		case pfStartedAt:
			p.StartedAt = r.strOrNull()
		case pfCount: // the closing brace, where the last pod had it
			return
		default:
			r.skip()
		}
	}
}

// podErr names the pod of a list an error was found in.
func podErr(i int, err error) error {
	return errors.New("pods[" + strconv.Itoa(i) + "]: " + err.Error())
}

func (r *jreader) mounts(m *V2Mounts) {
	if !r.beginFields(&r.mountKeys) {
		return
	}
	for {
		// fieldKey, its fast path inline (see there).
		var f uint8
		if v := r.mountKeys.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
			f = r.takeKey(&r.mountKeys, v)
		} else {
			var ok bool
			if f, ok = r.fieldKey(&r.mountKeys, mountsKeyLits); !ok {
				return
			}
		}
		switch f {
		case mountsClose: // the closing brace (closeKeyLit)
			return
		case 1: // persistent
			m.Persistent = nil
			if !r.null() {
				m.Persistent = r.mounts_.new()
				if !r.beginFields(&r.persistentKeys) {
					return
				}
				pko := &r.persistentKeys
			persistent:
				for {
					var f2 uint8
					if v := pko.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
						f2 = r.takeKey(pko, v)
					} else {
						var ok2 bool
						if f2, ok2 = r.fieldKey(pko, persistentKeyLits); !ok2 {
							break
						}
					}
					switch f2 {
					case 1:
						m.Persistent.Size = r.integer()
					case 2:
						m.Persistent.Path = r.str()
					case persistentClose: // the closing brace (closeKeyLit)
						break persistent
					default:
						r.skip()
					}
				}
			}
		case 2: // network
			m.Network = nil
			if r.null() || !r.beginArray() {
				continue
			}
			if r.stream {
				m.Network = r.net[:0]
			}
			fa := true
			for r.nextElem(&fa) {
				var n V2NetworkMount
				if !r.beginObject() {
					return
				}
				fn := true
				for k2, ok2 := r.nextKey(&fn); ok2; k2, ok2 = r.nextKey(&fn) {
					switch k2 {
					case "volumeId":
						n.VolumeID = r.str()
					case "path":
						n.Path = r.str()
					default:
						r.skip()
					}
				}
				m.Network = append(m.Network, n)
			}
			if r.stream {
				r.net = m.Network
				if len(m.Network) == 0 {
					m.Network = nil
				}
			}
		default:
			r.skip()
		}
	}
}

var (
	gpuKeyLits        = keyLits("id", "count")
	cpuKeyLits        = keyLits("id", "vcpuCount", "memory")
	runtimeKeyLits    = keyLits("ports", "uptime", "gpus", "cpu", "memory")
	mountsKeyLits     = keyLits("persistent", "network")
	persistentKeyLits = keyLits("size", "path")
	rtPortKeyLits     = keyLits("private", "public", "ip", "type")
)

// The field number of each table's closing brace (closeKeyLit: one past
// its keys), named in the loops' switches so that a key added to a table
// cannot silently take the number the brace had;
// TestKeyTablesEndWithTheirClosingBrace checks them against the tables.
const (
	gpuClose        = 3
	cpuClose        = 4
	runtimeClose    = 6
	mountsClose     = 3
	persistentClose = 3
	rtPortClose     = 5
)

func (r *jreader) gpu(g *V2PodGPU) {
	if !r.beginFields(&r.gpuKeys) {
		return
	}
	ko := &r.gpuKeys
	for {
		// fieldKey, its fast path inline (see there).
		var f uint8
		if v := ko.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
			f = r.takeKey(ko, v)
		} else {
			var ok bool
			if f, ok = r.fieldKey(ko, gpuKeyLits); !ok {
				return
			}
		}
		switch f {
		case 1:
			g.ID = r.str()
		case 2:
			g.Count = r.integer()
		case gpuClose: // the closing brace (closeKeyLit)
			return
		default:
			r.skip()
		}
	}
}

func (r *jreader) cpu(c *V2PodCPU) {
	if !r.beginFields(&r.cpuKeys) {
		return
	}
	for {
		// fieldKey, its fast path inline (see there).
		var f uint8
		if v := r.cpuKeys.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
			f = r.takeKey(&r.cpuKeys, v)
		} else {
			var ok bool
			if f, ok = r.fieldKey(&r.cpuKeys, cpuKeyLits); !ok {
				return
			}
		}
		switch f {
		case cpuClose: // the closing brace (closeKeyLit)
			return
		case 1:
			c.ID = r.str()
		case 2:
			c.VcpuCount = r.integer()
		case 3:
			c.Memory = r.integer()
		default:
			r.skip()
		}
	}
}

func (r *jreader) runtime(rt *V2PodRuntime) {
	if !r.beginFields(&r.rtKeys) {
		return
	}
	ko := &r.rtKeys
	for {
		// fieldKey, its fast path inline (see there).
		var f uint8
		if v := ko.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
			f = r.takeKey(ko, v)
		} else {
			var ok bool
			if f, ok = r.fieldKey(ko, runtimeKeyLits); !ok {
				return
			}
		}
		if f != 1 { // only ports
			if f == runtimeClose { // the closing brace (closeKeyLit)
				return
			}
			r.skip()
			continue
		}
		rt.Ports = nil
		if r.null() || !r.beginArray() {
			continue
		}
		// The ports of all pods share chunks of one buffer.
		start := len(r.ports)
		fa := true
		for r.nextElem(&fa) {
			var p V2RuntimePort
			if !r.beginFields(&r.portKeys) {
				return
			}
			pko := &r.portKeys
		port:
			for {
				var f2 uint8
				if v := pko.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
					f2 = r.takeKey(pko, v)
				} else {
					var ok2 bool
					if f2, ok2 = r.fieldKey(pko, rtPortKeyLits); !ok2 {
						break
					}
				}
				switch f2 {
				case 1:
					p.Private = r.integer()
				case 2:
					p.Public = r.intOrNull()
				case 3:
					p.IP = r.strOrNull()
				case rtPortClose: // the closing brace (closeKeyLit)
					break port
				default:
					r.skip()
				}
			}
			if r.err != nil {
				return
			}
			if len(r.ports) == cap(r.ports) {
				n := len(r.ports) - start
				nb := make([]V2RuntimePort, n, max(128, 2*n))
				copy(nb, r.ports[start:])
				r.ports, start = nb, 0
			}
			r.ports = append(r.ports, p)
		}
		rt.Ports = r.ports[start:len(r.ports):len(r.ports)]
	}
}

// keepEmpty returns b emptied, or nil if its capacity is over max.
func keepEmpty[T any](b []T, max int) []T {
	if cap(b) > max {
		return nil
	}
	return b[:0]
}

// keepCleared is keepEmpty, with every element of b's capacity zeroed
// (for elements that hold references).
func keepCleared[T any](b []T, max int) []T {
	if b = keepEmpty(b, max); b != nil {
		clear(b[:cap(b)])
	}
	return b
}
