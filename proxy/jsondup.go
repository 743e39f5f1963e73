package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// duplicateKey finds the first object key that appears twice in the same
// object of a JSON document ("" when none, or when the document is not
// JSON: the decoder that follows says what is wrong). encoding/json keeps
// the last of two keys; a GraphQL request with two "query" keys would run
// whichever a reader happens to keep, so the door refuses it (P12).
func duplicateKey(b []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	// One set of keys per open object (nil for an array).
	var stack []map[string]bool
	expectKey := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "", nil
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, map[string]bool{})
				expectKey = true
				continue
			case '[':
				stack = append(stack, nil)
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
		case string:
			if expectKey {
				keys := stack[len(stack)-1]
				if keys[t] {
					return t, fmt.Errorf("the request body has the key %q twice in one object: send it once", t)
				}
				keys[t] = true
				expectKey = false
				continue
			}
		}
		// After a value: the next token is a key when inside an object.
		expectKey = len(stack) > 0 && stack[len(stack)-1] != nil
	}
}
