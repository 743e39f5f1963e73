package podjson

import "testing"

func TestReleaseBody(t *testing.T) {
	// A body that did not come from the pool is never reused.
	static := []byte(`{"static":true}`)
	ReleaseBody(static)
	ReleaseBody(nil)
	for range 10 {
		b := PooledBody(append(GetAnswerBuf(64), "overwritten"...))
		ReleaseBody(b)
		ReleaseBody(b) // twice: the second is a no-op
	}
	if string(static) != `{"static":true}` {
		t.Fatalf("a released non-pooled body was reused: %s", static)
	}
	// Releasing twice never hands one buffer to two answers.
	b := PooledBody(append(GetAnswerBuf(64), "x"...))
	ReleaseBody(b)
	ReleaseBody(b)
	b1, b2 := GetAnswerBuf(64), GetAnswerBuf(64)
	if cap(b1) > 0 && cap(b2) > 0 && &b1[:1][0] == &b2[:1][0] {
		t.Fatal("one buffer handed out twice")
	}
	// Forgotten bodies are bounded.
	for range 3 * maxOutstandingBodies {
		PooledBody(append(GetAnswerBuf(8), 'x'))
	}
	answerBufs.mu.Lock()
	n := len(answerBufs.out)
	answerBufs.mu.Unlock()
	if n > maxOutstandingBodies {
		t.Fatalf("%d outstanding bodies", n)
	}
}
