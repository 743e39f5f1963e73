package v2sim

import (
	"net/http"
	"sort"
	"time"
)

type volume struct {
	seq       int64
	id, name  string
	size      int
	dc        string
	typ       string
	createdAt time.Time
}

type volumeJSON struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Size       int    `json:"size"`
	DataCenter string `json:"dataCenter"`
	Type       string `json:"type"`
}

func (v *volume) render() volumeJSON {
	return volumeJSON{ID: v.id, Name: v.name, Size: v.size, DataCenter: v.dc, Type: v.typ}
}

// volumeRate is the storage price per hour of a volume (per GB-month:
// STANDARD $0.07, HIGH_PERFORMANCE $0.14).
func volumeRate(v *volume) (standard, hp float64) {
	if v.typ == "HIGH_PERFORMANCE" {
		return 0, round(float64(v.size)*0.14/730, 6)
	}
	return round(float64(v.size)*0.07/730, 6), 0
}

func (s *Server) volumeUsage(v *volume, now time.Time) {
	std, hp := volumeRate(v)
	s.reopenUsage("volume", v.id, "standard", std, now)
	s.reopenUsage("volume", v.id, "hp", hp, now)
}

func (s *Server) listVolumes(c *call) *reply {
	vols := make([]*volume, 0, len(s.st.volumes))
	for _, v := range s.st.volumes {
		vols = append(vols, v)
	}
	sort.Slice(vols, func(i, j int) bool { return vols[i].seq < vols[j].seq })
	out := []volumeJSON{}
	for _, v := range vols {
		out = append(out, v.render())
	}
	return jsonReply(http.StatusOK, map[string]any{"networkVolumes": out})
}

func (s *Server) getVolume(c *call) *reply {
	v := s.st.volumes[c.param("id")]
	if v == nil {
		return notFound("network volume", c.param("id"))
	}
	return jsonReply(http.StatusOK, v.render())
}

func (s *Server) createVolume(c *call) *reply {
	body, rep := decodeBody(c.body, createVolumeSchema)
	if rep != nil {
		return rep
	}
	v := &volume{createdAt: c.now}
	v.name, _ = getStr(body, "name")
	v.size, _ = getInt(body, "size")
	v.dc, _ = getStr(body, "dataCenter")
	// Simulator's choice: the document does not say what an unknown data
	// center, or one without network volumes, does here; the simulator
	// answers 400 (a body that matches the contract but is refused).
	dc := findDC(v.dc)
	if dc == nil {
		return badRequest("dataCenter: unknown data center %q (see GET /v2/catalog/datacenters)", v.dc)
	}
	if len(dc.volumeTypes) == 0 {
		return badRequest("dataCenter: data center %s offers no network volumes", v.dc)
	}
	v.typ = dc.volumeTypes[0]
	if t, ok := getStr(body, "type"); ok {
		if !contains(dc.volumeTypes, t) {
			return badRequest("type: data center %s does not offer %s network volumes (it offers %v)", v.dc, t, dc.volumeTypes)
		}
		v.typ = t
	}
	v.seq, v.id = s.st.nextSeq(), s.newID(10)
	s.st.volumes[v.id] = v
	s.volumeUsage(v, c.now)
	return jsonReply(http.StatusCreated, v.render())
}

func (s *Server) updateVolume(c *call) *reply {
	body, rep := decodeBody(c.body, updateVolumeSchema)
	if rep != nil {
		return rep
	}
	v := s.st.volumes[c.param("id")]
	if v == nil {
		return notFound("network volume", c.param("id"))
	}
	if size, ok := getInt(body, "size"); ok {
		if size < v.size {
			return badRequest("size: network volume storage cannot be reduced (current size %d GB, requested %d GB)", v.size, size)
		}
		v.size = size
	}
	if name, ok := getStr(body, "name"); ok {
		v.name = name
	}
	s.volumeUsage(v, c.now)
	return jsonReply(http.StatusOK, v.render())
}

func (s *Server) deleteVolume(c *call) *reply {
	v := s.st.volumes[c.param("id")]
	if v == nil {
		return notFound("network volume", c.param("id"))
	}
	// Simulator's choice (the document says only "Permanently deletes a
	// network volume and releases its storage"): endpoints no longer list it.
	// A pod keeps its mounts.network entry: the mount kind is fixed at create
	// and an empty network list is rejected, so the document leaves no way to
	// show it detached.
	for _, e := range s.st.endpoints {
		kept := e.vols[:0:0]
		for _, id := range e.vols {
			if id != v.id {
				kept = append(kept, id)
			}
		}
		e.vols = kept
	}
	s.closeAllUsage("volume", v.id, c.now)
	delete(s.st.volumes, v.id)
	return noContent()
}
