package graphql

import (
	"net/http"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// Network volumes: createNetworkVolume (v1 CreateNetworkVolume) and
// deleteNetworkVolume (v1 DeleteNetworkVolume), each on the v1
// operation's plan (v2 /v2/network-volumes); User.networkVolumes and the
// NetworkVolume object are in user.go.

// createNetworkVolume is createNetworkVolume(input: {name, size,
// dataCenterId}), answering the volume.
func createNetworkVolume(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	body := map[string]any{}
	if s, ok := in.str("name"); ok {
		body["name"] = s
	}
	if n, ok := in.int("size"); ok {
		body["size"] = n
	}
	if s, ok := in.str("dataCenterId"); ok && s != "" {
		body["dataCenterId"] = s
	}
	res, err := ec.run("CreateNetworkVolume", nil, nil, body)
	if err != nil {
		return nil, err
	}
	v, ok := res.Model.(translate.V1NetworkVolume)
	if !ok {
		return nil, nil
	}
	return &volumeObject{id: v.ID, v: &v}, nil
}

// deleteNetworkVolume is deleteNetworkVolume(input: {id}). The vendor
// answered null, and for a volume that is not there its own message, which
// dstack looks for to take the volume as gone (vendorNotFound).
func deleteNetworkVolume(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.rootInput(f).str("id")
	_, v2Status, err := ec.runNoting("DeleteNetworkVolume", map[string]string{"networkVolumeId": id}, nil, nil)
	if pe, ok := err.(*planError); ok && (v2Status == http.StatusNotFound || (v2Status == 0 && pe.status == http.StatusNotFound)) {
		return nil, vendorNotFound(pe, "Tried to delete nonexistent network volume "+id, "NOT_FOUND")
	}
	if err != nil {
		return nil, err
	}
	return nil, nil
}

// volumeDataCenter is NetworkVolume.dataCenter: the v2 data center the
// volume is in, from the data-center catalog (nil: none, or one the
// catalog does not list).
func (ec *execCtx) volumeDataCenter(id string) (any, error) {
	if id == "" {
		return nil, nil
	}
	dcs, err := ec.dataCenterList(false)
	if err != nil {
		return nil, err
	}
	for i := range dcs {
		if dcs[i].ID == id {
			return &dataCenterObject{dc: &dcs[i]}, nil
		}
	}
	return nil, nil
}
