package proxy

import (
	"fmt"

	"github.com/v1gateway/v1gateway/podjson"
)

// duplicateKey finds the first object key that appears twice in the same
// object of a JSON document ("" when none, or when the document is not
// JSON: the decoder that follows says what is wrong), with podjson's
// scanner, which checks v1 bodies the same way. encoding/json keeps the
// last of two keys; a GraphQL request with two "query" keys would run
// whichever a reader happens to keep, so the door refuses it (P12).
func duplicateKey(b []byte) (string, error) {
	key, ok := podjson.DuplicateKey(b)
	if !ok {
		return "", nil
	}
	return key, fmt.Errorf("the request body has the key %q twice in one object: send it once", key)
}
