package graphql

import "testing"

func TestRunpodPythonGetPodsAnswersEveryPodWithTheFieldsItReads(t *testing.T) {
	w := newWorld(t)
	a := w.ok(clientDocument(t, "runpod-python/get_pods.graphql"), "")
	pods, ok := path(a.Data, "myself.pods").([]any)
	if !ok || len(pods) == 0 {
		t.Fatalf("no pods: %s", a.raw)
	}
	for _, p := range pods {
		for _, k := range []string{"id", "name", "desiredStatus", "imageName"} {
			if s, _ := path(p, k).(string); s == "" {
				t.Errorf("pod %v: %s is %v", path(p, "id"), k, path(p, k))
			}
		}
	}
	t.Logf("%s", a.raw)
}
