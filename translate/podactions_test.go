package translate

import (
	"strings"
	"testing"
)

// #9/#10/#12 POST /pods/{podId}/{start,stop,restart} and #11 reset

func TestPodActions(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	for _, tc := range []struct{ op, action, status string }{
		{"StartPod", "start", "RUNNING"}, {"StopPod", "stop", "EXITED"}, {"RestartPod", "restart", "RUNNING"},
	} {
		t.Run(tc.op, func(t *testing.T) {
			res, f := run(t, tc.op, runOpts{params: params},
				step{method: "POST", path: "/v2/pods/p1/action", status: 200, body: pod("p1", set("status", tc.status))})
			wantStatus(t, res, 200)
			jsonEqual(t, "action body", []byte(f.bodies("POST", "/v2/pods/p1/action")[0]), `{"action":"`+tc.action+`"}`)
			if got := decodeV1(t, res.Body)["desiredStatus"]; got != tc.status {
				t.Errorf("desiredStatus %v", got)
			}
		})
		t.Run(tc.op+"/409 of an unreadable pod keeps v2's reason", func(t *testing.T) {
			res, _ := run(t, tc.op, runOpts{params: params},
				step{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, "invalid transition")},
				step{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")})
			wantStatus(t, res, 400)
			wantMessage(t, res, "invalid transition")
		})
		t.Run(tc.op+"/404", func(t *testing.T) {
			res, _ := run(t, tc.op, runOpts{params: params},
				step{method: "POST", path: "/v2/pods/p1/action", status: 404, body: problem(404, "pod not found")})
			wantStatus(t, res, 400)
		})
	}
}

// v1 shows desiredStatus RUNNING while v2 still reports a new or started
// pod PROVISIONING or STARTING and refuses restart (v2sim: actions stop,
// terminate). Each refused action is decided by what the v1 client asked
// for and can see.
func TestPodActionsOnAPodStillStarting(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	refused := func(action, st string) step {
		return step{method: "POST", path: "/v2/pods/p1/action", status: 409,
			body: problem(409, `action "`+action+`" is not valid for a pod in status `+st+`; valid actions: stop, terminate`)}
	}
	getPod := func(opts ...func(map[string]any)) step {
		return step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", opts...)}
	}
	tests := []struct {
		name, op, action string
		script           []step
		status           int
		code             string   // note code of the warning, if any
		msg              []string // parts of the warning or the error message
		actions          int      // POST .../action calls made
	}{
		{name: "a restart of a provisioning pod is answered with the pod and a warning", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "PROVISIONING"), getPod(set("status", "PROVISIONING"), set("runtime", nil))},
			status: 200, code: CodePodAlreadyStarting, msg: []string{"still starting", "PROVISIONING", "no restart was sent"}, actions: 1},
		{name: "a restart of a starting pod likewise", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "STARTING"), getPod(set("status", "STARTING"))},
			status: 200, code: CodePodAlreadyStarting, msg: []string{"STARTING"}, actions: 1},
		{name: "a start of a starting pod likewise", op: "StartPod", action: "start",
			script: []step{refused("start", "STARTING"), getPod(set("status", "STARTING"))},
			status: 200, code: CodePodAlreadyStarting, msg: []string{"no start was sent"}, actions: 1},
		{name: "a start of a running pod is answered with the pod and a warning", op: "StartPod", action: "start",
			script: []step{refused("start", "RUNNING"), getPod(set("status", "RUNNING"))},
			status: 200, code: CodePodAlreadyRunning, msg: []string{"already running"}, actions: 1},
		{name: "a restart refused while starting is sent again once the pod runs", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "STARTING"), getPod(set("status", "RUNNING")),
				{method: "POST", path: "/v2/pods/p1/action", status: 200, body: pod("p1", set("status", "PROVISIONING"))}},
			status: 200, actions: 2},
		{name: "only once", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "STARTING"), getPod(set("status", "RUNNING")),
				{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, `pod p1 belongs to cluster c1; member pods are managed through /v2/clusters/c1`)},
				getPod(set("status", "RUNNING"))},
			status: 400, msg: []string{`pod p1 belongs to cluster c1`}, actions: 2},
		{name: "a restart of a stopped pod is a 400 naming v1's status and route", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "EXITED"), getPod(set("status", "EXITED"))},
			status: 400, msg: []string{"desiredStatus EXITED", "POST /v1/pods/{podId}/start"}, actions: 1},
		{name: "a stop of a stopped pod is a 400", op: "StopPod", action: "stop",
			script: []step{refused("stop", "EXITED"), getPod(set("status", "EXITED"))},
			status: 400, msg: []string{"already stopped"}, actions: 1},
		{name: "a stop of a locked pod is a 400 naming locked", op: "StopPod", action: "stop",
			script: []step{{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, `pod "p1" is locked and cannot be stopped; unlock it first (PATCH {"locked": false})`)},
				getPod(set("locked", true))},
			status: 400, msg: []string{"locked", "PATCH /v1/pods/{podId}"}, actions: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, tc.op, runOpts{params: params}, tc.script...)
			wantStatus(t, res, tc.status)
			if n := len(f.bodies("POST", "/v2/pods/p1/action")); n != tc.actions {
				t.Errorf("%d actions sent, want %d", n, tc.actions)
			}
			for _, b := range f.bodies("POST", "/v2/pods/p1/action") {
				jsonEqual(t, "action", []byte(b), `{"action":"`+tc.action+`"}`)
			}
			if tc.status >= 400 {
				wantMessage(t, res, tc.msg...)
				if strings.Contains(string(res.Body), "/v2") || strings.Contains(string(res.Body), "PROVISIONING") {
					t.Errorf("v2 wording in a v1 error: %s", res.Body)
				}
				return
			}
			if got := decodeV1(t, res.Body)["desiredStatus"]; got != "RUNNING" {
				t.Errorf("desiredStatus %v", got)
			}
			if tc.code == "" {
				if len(res.Warnings) != 0 {
					t.Errorf("warnings %q", res.Warnings)
				}
				return
			}
			if len(res.Notes) != 1 || res.Notes[0].Code != tc.code {
				t.Fatalf("notes %+v, want one %s", res.Notes, tc.code)
			}
			for _, m := range tc.msg {
				if !strings.Contains(res.Warnings[0], m) {
					t.Errorf("warning %q lacks %q", res.Warnings[0], m)
				}
			}
		})
	}
}

func TestResetPod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	t.Run("rejected by default, naming restart", func(t *testing.T) {
		res, f := run(t, "ResetPod", runOpts{params: params})
		wantStatus(t, res, 400)
		wantMessage(t, res, "restart")
		if len(f.calls) != 0 || res.Emulated != "" {
			t.Error("reset must not call v2 by default")
		}
	})
	emulate := Options{ResetRestart: true}
	for _, tc := range []struct{ status, action string }{{"RUNNING", "restart"}, {"EXITED", "start"}, {"ERROR", "start"}} {
		t.Run("emulated from "+tc.status, func(t *testing.T) {
			res, f := run(t, "ResetPod", runOpts{params: params, options: emulate},
				step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", tc.status))},
				step{method: "POST", path: "/v2/pods/p1/action", status: 200, body: pod("p1", set("status", "RUNNING"))})
			wantStatus(t, res, 200)
			if res.Emulated != "reset" {
				t.Errorf("Emulated %q", res.Emulated)
			}
			jsonEqual(t, "action", []byte(f.bodies("POST", "/v2/pods/p1/action")[0]), `{"action":"`+tc.action+`"}`)
		})
	}
	for _, st := range []string{"STARTING", "PROVISIONING"} {
		t.Run("emulated from "+st+": already starting from scratch, nothing sent", func(t *testing.T) {
			res, f := run(t, "ResetPod", runOpts{params: params, options: emulate},
				step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", st))})
			wantStatus(t, res, 200)
			if res.Emulated != "reset" || len(f.bodies("POST", "/v2/pods/p1/action")) != 0 {
				t.Errorf("Emulated %q, %d actions", res.Emulated, len(f.bodies("POST", "/v2/pods/p1/action")))
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "still starting") {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	// A reset that ends in a 400 was not emulated: no X-Compat-Emulated,
	// and no reset_emulated note counted.
	noEmulation := func(t *testing.T, res *Result) {
		t.Helper()
		if res.Emulated != "" {
			t.Errorf("a refused reset carries Emulated %q", res.Emulated)
		}
		for _, n := range res.Notes {
			if n.Code == CodeResetEmulated {
				t.Errorf("a refused reset counts as emulated: %+v", res.Notes)
			}
		}
	}
	t.Run("locked pods cannot be reset", func(t *testing.T) {
		res, _ := run(t, "ResetPod", runOpts{params: params, options: emulate},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("locked", true))})
		wantStatus(t, res, 400)
		wantMessage(t, res, "locked")
		noEmulation(t, res)
	})
	t.Run("unknown pod", func(t *testing.T) {
		res, _ := run(t, "ResetPod", runOpts{params: params, options: emulate},
			step{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")})
		wantStatus(t, res, 400)
		noEmulation(t, res)
	})
	t.Run("a restart v2 refuses", func(t *testing.T) {
		res, _ := run(t, "ResetPod", runOpts{params: params, options: emulate},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", "RUNNING"))},
			step{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, "no")},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", "EXITED"))})
		wantStatus(t, res, 400)
		noEmulation(t, res)
	})
}
