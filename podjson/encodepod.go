package podjson

// v1 pods as JSON: AppendV1Pod writes a V1Pod (the reference: R-Pod's
// FillV1Pod, then this), AppendV1PodOf writes the same bytes straight
// from a V2Pod (the list's path).

// AppendV1Pod appends p as JSON; the result equals json.Marshal(p) up to
// HTML escaping and the whitespace inside env and ports, for p with its
// DockerStartCmd split (V1PodFrom; FillV1Pod leaves the args raw, and this
// writes them as V1PodFrom splits them).
func AppendV1Pod(b []byte, p *V1Pod) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", p.ID)
	w.str("name", p.Name)
	w.str("image", p.Image)
	w.int("containerDiskInGb", p.ContainerDiskInGb)
	w.strNull("containerRegistryAuthId", string(p.ContainerRegistryAuthID))
	if p.argsRaw {
		w.b = appendPodArgs(&w, p.args)
	} else if p.DockerStartCmd != nil {
		w.strs("dockerStartCmd", p.DockerStartCmd)
	} else {
		w.null("dockerStartCmd")
	}
	w.raw("env", rawOr(p.Env, jsonNull))
	w.raw("ports", rawOr(p.Ports, jsonNull))
	w.strNull("desiredStatus", string(p.DesiredStatus))
	w.boolean("locked", p.Locked)
	w.float("costPerHr", p.CostPerHr)
	w.float("adjustedCostPerHr", p.AdjustedCostPerHr)
	if g := p.GPU; g != nil {
		w.key("gpu")
		w.b = appendV1PodGPU(w.b, g)
	} else {
		w.null("gpu")
	}
	w.int("volumeInGb", p.VolumeInGb)
	w.strNull("volumeMountPath", string(p.VolumeMountPath))
	if v := p.NetworkVolume; v != nil {
		w.key("networkVolume")
		w.b = append(w.b, '{')
		vw := jw{b: w.b, first: true}
		vw.str("id", v.ID)
		vw.str("name", v.Name)
		vw.int("size", v.Size)
		vw.str("dataCenterId", v.DataCenterID)
		w.b = append(vw.b, '}')
	} else if p.NetworkVolumeAsked {
		w.null("networkVolume")
	}
	w.key("portMappings")
	w.b = p.PortMappings.appendJSON(w.b)
	w.strNull("publicIp", string(p.PublicIP))
	w.strNull("lastStartedAt", string(p.LastStartedAt))
	w.strOmit("createdAt", p.CreatedAt)
	w.strOmit("cloudType", p.CloudType)
	w.str("imageName", p.ImageName)
	w.strOmit("gpuTypeId", p.GpuTypeID)
	if p.GpuCount != 0 {
		w.int("gpuCount", p.GpuCount)
	}
	w.strNull("cpuFlavorId", string(p.CPUFlavorID))
	w.intPtr("vcpuCount", p.VcpuCount)
	w.intPtr("memoryInGb", p.MemoryInGb)
	if p.DockerEntrypoint != nil {
		w.strs("dockerEntrypoint", p.DockerEntrypoint)
	} else {
		w.null("dockerEntrypoint")
	}
	w.boolean("interruptible", p.Interruptible)
	if e := p.VolumeEncrypted; e != nil {
		w.boolean("volumeEncrypted", *e)
	} else {
		w.null("volumeEncrypted")
	}
	w.strNull("machineId", string(p.MachineID))
	w.strNull("lastStatusChange", string(p.LastStatusChange))
	w.strNull("consumerUserId", string(p.ConsumerUserID))
	if s := p.SavingsPlans; s != nil {
		w.key("savingsPlans")
		w.b = append(w.b, '[')
		for i := range *s {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = append(w.b, '{', '}')
		}
		w.b = append(w.b, ']')
	} else {
		w.null("savingsPlans")
	}
	w.strNull("endpointId", string(p.EndpointID))
	w.strNull("aiApiId", string(p.AiAPIID))
	w.intPtr("slsVersion", p.SlsVersion)
	w.strNull("templateId", string(p.TemplateID))
	if m := p.Machine; m != nil {
		w.key("machine")
		w.b = append(w.b, '{')
		mw := jw{b: w.b, first: true}
		mw.strOmit("gpuTypeId", m.GpuTypeID)
		if t := m.GpuType; t != nil {
			mw.key("gpuType")
			mw.b = append(mw.b, '{')
			tw := jw{b: mw.b, first: true}
			tw.str("id", t.ID)
			tw.strOmit("displayName", t.DisplayName)
			tw.floatPtr("securePrice", t.SecurePrice)
			tw.floatPtr("communityPrice", t.CommunityPrice)
			mw.b = append(tw.b, '}')
		}
		mw.strOmit("dataCenterId", m.DataCenterID)
		if m.SecureCloud != nil {
			mw.boolean("secureCloud", *m.SecureCloud)
		}
		mw.strOmit("gpuDisplayName", m.GpuDisplayName)
		w.b = append(mw.b, '}')
	}
	if t := p.Template; t != nil {
		w.key("template")
		w.b = append(w.b, '{')
		tw := jw{b: w.b, first: true}
		tw.str("id", t.ID)
		tw.str("name", t.Name)
		tw.str("imageName", t.ImageName)
		tw.int("containerDiskInGb", t.ContainerDiskInGb)
		tw.strOmit("containerRegistryAuthId", t.ContainerRegistryAuthID)
		if t.DockerStartCmd != nil {
			tw.strs("dockerStartCmd", t.DockerStartCmd)
		}
		tw.raw("env", rawOr(t.Env, jsonNull))
		tw.raw("ports", rawOr(t.Ports, jsonNull))
		tw.strOmit("category", t.Category)
		tw.boolean("isPublic", t.IsPublic)
		tw.boolean("isServerless", t.IsServerless)
		tw.int("volumeInGb", t.VolumeInGb)
		tw.strOmit("volumeMountPath", t.VolumeMountPath)
		w.b = append(tw.b, '}')
	}
	return append(w.b, '}')
}

// appendLit appends the constant s. The compiler copies a constant of up
// to 16 bytes with a load and a store or two, but calls memmove for a
// longer one: those are appended in two pieces (the condition and the
// pieces are constants once this is inlined).
func appendLit(b []byte, s string) []byte {
	if len(s) > 16 {
		b = append(b, s[:16]...)
		s = s[16:]
	}
	return append(b, s...)
}

// AppendV1PodOf appends the v1 Pod of p — R-Pod without include*
// expansions — as JSON: the same bytes as FillV1Pod then AppendV1Pod
// (stream_test.go checks it byte for byte), without the intermediate
// V1Pod. That one points into itself (GPU → gpu), so it lives on the heap,
// and filling it pod after pod costs a GC write barrier per string while
// a collection runs: the list path encodes straight from the v2 pod.
func AppendV1PodOf(b []byte, p *V2Pod) []byte {
	return appendV1PodOf(b, p, nil)
}

// appendV1PodOf is AppendV1PodOf, through the memo of args m when it is
// not nil (ArgsMemo.AppendV1PodOf).
func appendV1PodOf(b []byte, p *V2Pod, m *ArgsMemo) []byte {
	// The keys come in a fixed order and "id" is always first, so each
	// key is appended with its comma as one literal.
	b = append(b, `{"id":`...)
	b = AppendString(b, p.ID)
	b = append(b, `,"name":`...)
	b = AppendString(b, p.Name)
	b = append(b, `,"image":`...)
	img := len(b) // imageName is the same string: encoded once
	b = AppendString(b, p.Image)
	imgLen := len(b) - img
	b = appendLit(b, `,"containerDiskInGb":`)
	b = appendInt(b, p.Disk)
	if p.Registry != "" {
		b = appendLit(b, `,"containerRegistryAuthId":`)
		b = AppendString(b, p.Registry)
	} else {
		b = appendLit(b, `,"containerRegistryAuthId":null`)
	}
	if m != nil {
		b = m.appendPodArgs(b, p.Args)
	} else {
		w := jw{b: b}
		b = appendPodArgs(&w, p.Args)
	}
	b = append(b, `,"env":`...)
	b = append(b, rawOr(p.Env, jsonEmptyObject)...)
	b = append(b, `,"ports":`...)
	b = append(b, rawOr(p.Ports, jsonEmptyArray)...)
	// One literal a value: a variable ds would be copied by memmove.
	switch ds := DesiredStatus(p.Status); ds {
	case "":
		b = appendLit(b, `,"desiredStatus":null`)
	case "RUNNING":
		b = appendLit(b, `,"desiredStatus":"RUNNING"`)
	case "EXITED":
		b = appendLit(b, `,"desiredStatus":"EXITED"`)
	case "TERMINATED":
		b = appendLit(b, `,"desiredStatus":"TERMINATED"`)
	default: // a value desiredStatus may add later, never dropped here
		b = append(b, `,"desiredStatus":`...)
		b = AppendString(b, ds)
	}
	if p.Locked {
		b = append(b, `,"locked":true`...)
	} else {
		b = append(b, `,"locked":false`...)
	}
	// costPerHr and adjustedCostPerHr are the same number: formatted once.
	b = append(b, `,"costPerHr":`...)
	n := len(b)
	b = AppendFloat(b, p.Cost)
	cost := len(b) - n
	b = appendLit(b, `,"adjustedCostPerHr":`)
	b = append(b, b[n:n+cost]...)
	gpuID, gpuIDLen := 0, 0 // gpuTypeId is the same string: encoded once
	if g := p.GPU; g != nil {
		b = append(b, `,"gpu":{"id":`...)
		gpuID = len(b)
		b = AppendString(b, g.ID)
		gpuIDLen = len(b) - gpuID
		b = append(b, `,"count":`...)
		b = appendInt(b, g.Count)
		b = append(b, '}')
	} else {
		b = appendLit(b, `,"gpu":null`)
	}
	size, path, volume := 0, "", false
	if pm := p.Mounts.Persistent; pm != nil {
		size, path, volume = pm.Size, pm.Path, true
	} else if len(p.Mounts.Network) > 0 {
		path, volume = p.Mounts.Network[0].Path, true
	}
	b = append(b, `,"volumeInGb":`...)
	b = appendInt(b, size)
	if path != "" {
		b = appendLit(b, `,"volumeMountPath":`)
		b = AppendString(b, path)
	} else {
		b = append(b, `,"volumeMountPath":null`...)
	}
	var ports []V2RuntimePort
	if p.Runtime != nil {
		ports = p.Runtime.Ports
	}
	b = append(b, `,"portMappings":`...)
	b = V1PortMappings(ports).appendJSON(b)
	if ip := publicIP(ports); ip != "" {
		b = append(b, `,"publicIp":`...)
		b = AppendString(b, string(ip))
	} else {
		b = append(b, `,"publicIp":null`...)
	}
	if p.StartedAt != "" {
		b = appendLit(b, `,"lastStartedAt":`)
		b = AppendString(b, p.StartedAt)
	} else {
		b = append(b, `,"lastStartedAt":null`...)
	}
	if p.CreatedAt != "" {
		b = append(b, `,"createdAt":`...)
		b = AppendString(b, p.CreatedAt)
	}
	switch p.Cloud { // interned: the two values are literals
	case "":
	case "SECURE":
		b = appendLit(b, `,"cloudType":"SECURE"`)
	case "COMMUNITY":
		b = appendLit(b, `,"cloudType":"COMMUNITY"`)
	default:
		b = append(b, `,"cloudType":`...)
		b = AppendString(b, p.Cloud)
	}
	// The names runpodctl reads (V1Pod.ImageName): the values above again.
	b = append(b, `,"imageName":`...)
	b = append(b, b[img:img+imgLen]...)
	if g := p.GPU; g != nil {
		if g.ID != "" {
			b = append(b, `,"gpuTypeId":`...)
			b = append(b, b[gpuID:gpuID+gpuIDLen]...)
		}
		if g.Count != 0 {
			b = append(b, `,"gpuCount":`...)
			b = appendInt(b, g.Count)
		}
	}
	// The end of the object (V1Pod.CPUFlavorID to TemplateID): a CPU
	// pod's figures, then constants but for volumeEncrypted (false
	// without a volume, null with one), in one copy for a GPU pod, then
	// templateId, always last: a streamed list fills a null one from the
	// fact store afterwards (translate's insertPodTemplates).
	if c := p.CPU; c != nil {
		if c.ID != "" {
			b = append(b, `,"cpuFlavorId":`...)
			b = AppendString(b, c.ID)
		} else {
			b = append(b, `,"cpuFlavorId":null`...)
		}
		if c.VcpuCount != 0 {
			b = append(b, `,"vcpuCount":`...)
			b = appendInt(b, c.VcpuCount)
		} else {
			b = append(b, `,"vcpuCount":null`...)
		}
		if c.Memory != 0 {
			b = append(b, `,"memoryInGb":`...)
			b = appendInt(b, c.Memory)
		} else {
			b = append(b, `,"memoryInGb":null`...)
		}
		if volume {
			b = append(b, podEndVolume...)
		} else {
			b = append(b, podEndNoVolume...)
		}
	} else if volume {
		b = append(b, podNoCPU+podEndVolume...)
	} else {
		b = append(b, podNoCPU+podEndNoVolume...)
	}
	if p.Template != "" {
		b = AppendString(b, p.Template)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// The end of a pod's object as AppendV1PodOf writes it, after the CPU
// figures: dockerEntrypoint and interruptible (the same for every pod in
// v2), volumeEncrypted (false without a volume, null with one), the keys
// null for every pod in v2, and templateId's key. podNoCPU is the CPU
// figures of a GPU pod.
const (
	podNoCPU   = `,"cpuFlavorId":null,"vcpuCount":null,"memoryInGb":null`
	podEndHead = `,"dockerEntrypoint":[],"interruptible":false,"volumeEncrypted":`
	podEndTail = `,"machineId":null,"lastStatusChange":null,"consumerUserId":null,"savingsPlans":null,` +
		`"endpointId":null,"aiApiId":null,"slsVersion":null,"templateId":`
	podEndVolume   = podEndHead + "null" + podEndTail
	podEndNoVolume = podEndHead + "false" + podEndTail
)

func appendV1PodGPU(b []byte, g *V1PodGPU) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", g.ID)
	w.int("count", g.Count)
	w.strOmit("displayName", g.DisplayName)
	w.floatPtr("securePrice", g.SecurePrice)
	w.floatPtr("communityPrice", g.CommunityPrice)
	return append(w.b, '}')
}

var jsonNull = []byte("null")

// AppendV1Pods appends a JSON array of pods.
func AppendV1Pods(b []byte, pods []V1Pod) []byte {
	b = append(b, '[')
	for i := range pods {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendV1Pod(b, &pods[i])
	}
	return append(b, ']')
}
