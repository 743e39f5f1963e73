package proxy

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/translate"
)

func TestOneCallerSendingManyDistinctCatalogInputsCannotEmptyTheCatalogCache(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	cc := newCatalogCache(time.Minute, func() time.Time { return now })
	ok := func() *translate.V2Answer {
		return &translate.V2Answer{Status: http.StatusOK, Header: http.Header{}, Body: []byte(`[]`)}
	}
	catalog := translate.V2Call{Method: http.MethodGet, Path: "/v2/catalog/gpus"}
	cc.put(catalog, ok())
	if _, hit := cc.get(catalog); !hit {
		t.Fatal("the catalog was not kept")
	}
	for i := range 300 {
		c := translate.V2Call{Method: http.MethodGet, Path: "/v2/catalog/gpus", Query: url.Values{"id": {"x" + strconv.Itoa(i)}}}
		cc.put(c, ok())
	}
	if _, hit := cc.get(catalog); !hit {
		t.Error("300 distinct inputs of one caller emptied the catalog every request reads")
	}
	if n := len(cc.entries); n > cc.max {
		t.Errorf("%d entries, more than %d", n, cc.max)
	}
}
