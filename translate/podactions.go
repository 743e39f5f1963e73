package translate

import (
	"context"
	"net/http"

	"github.com/v1gateway/v1gateway/podjson"
)

// ---------------------------------------------------------------------------
// #9, #10, #12 POST /pods/{podId}/{start,stop,restart}

type v2PodAction struct {
	Action string `json:"action"`
}

// podActionPlan returns the plan of one v2 pod action.
func podActionPlan(action string) PlanFunc {
	return func(ctx context.Context, req *Request, c Caller) *Result {
		id, r := podID(req)
		if r != nil {
			return r
		}
		return doPodAction(ctx, req, c, id, action)
	}
}

func doPodAction(ctx context.Context, req *Request, c Caller, id, action string) *Result {
	return podAction(ctx, req, c, id, action, true)
}

// podAction sends one v2 pod action. v2 refuses (409) an action that is not
// valid in the pod's current status, a status the v1 client cannot see: v1
// shows desiredStatus RUNNING for a pod v2 still reports PROVISIONING or
// STARTING. On a 409 the pod is read, and the answer is decided by what
// the v1 client asked for (podActionRefused); retry allows one more try
// when the pod has meanwhile reached a status where the action is valid.
func podAction(ctx context.Context, req *Request, c Caller, id, action string, retry bool) *Result {
	a, err := podCall(ctx, c, http.MethodPost, V2Path("/v2/pods/%s/action", id), nil, v2PodAction{Action: action})
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		if a.Status == http.StatusConflict {
			if res := podActionRefused(ctx, req, c, id, action, retry); res != nil {
				return res
			}
		}
		return FromV2Error(req.Op, a)
	}
	p, r := decodePodAnswer(a)
	if r != nil || p.ID == "" {
		// v2 documents 200 + Pod; without a readable pod, read it.
		g, err := podCall(ctx, c, http.MethodGet, V2Path("/v2/pods/%s", id), nil, nil)
		if err == nil && g.OK() {
			p, r = decodePodAnswer(g)
		}
		if err != nil || !g.OK() || r != nil {
			// The action was applied (P4): say so, with what is known.
			res := JSON(http.StatusOK, struct {
				ID string `json:"id"`
			}{id})
			res.warn(CodeAnswerUnreadable, "the "+action+" was applied but the pod could not be read afterwards")
			return res
		}
	}
	return podAnswerOf(http.StatusOK, podFacts(ctx, req, p))
}

// podActionRefused decides the v1 answer to an action v2 refused with a
// 409, from the pod's status read afterwards; nil keeps v2's refusal (the
// pod could not be read). v1's desiredStatus is what the client sees:
//   - restart or start of a pod still PROVISIONING or STARTING (v1: RUNNING):
//     the pod is already starting from scratch, which is the effect asked
//     for: 200 with the pod, and a warning that no action was sent;
//   - start of a RUNNING pod: it runs, as asked: 200 with a warning;
//   - the pod reached a status where the action is valid meanwhile (restart
//     of a pod now RUNNING, start of one now EXITED): sent once more;
//   - restart or stop of a stopped pod, stop of a locked pod: 400 naming
//     the pod's v1 desiredStatus and the v1 route to use;
//   - anything else (a cluster member pod, a second refusal): v2's reason.
//
// Nothing is reported as done that was not: the warning says no action was
// sent, and a stop is never answered 200 unless v2 stopped the pod.
func podActionRefused(ctx context.Context, req *Request, c Caller, id, action string, retry bool) *Result {
	g, err := podCall(ctx, c, http.MethodGet, V2Path("/v2/pods/%s", id), nil, nil)
	if err != nil || !g.OK() {
		return nil
	}
	p, r := decodePodAnswer(g)
	if r != nil {
		return nil
	}
	ds := podjson.DesiredStatus(p.Status)
	switch {
	case (action == "restart" || action == "start") && (p.Status == "PROVISIONING" || p.Status == "STARTING"):
		res := podAnswerOf(http.StatusOK, p)
		res.warn(CodePodAlreadyStarting, "the pod is still starting (v2 status "+p.Status+", v1 desiredStatus RUNNING): no "+action+" was sent, since the pod is already starting from scratch")
		return res
	case action == "start" && p.Status == "RUNNING":
		res := podAnswerOf(http.StatusOK, p)
		res.warn(CodePodAlreadyRunning, "the pod is already running: no start was sent")
		return res
	case retry && ((action == "restart" && p.Status == "RUNNING") || (action == "start" && (p.Status == "EXITED" || p.Status == "ERROR"))):
		return podAction(ctx, req, c, id, action, false)
	case action == "stop" && p.Locked && ds == "RUNNING":
		return Fail(http.StatusBadRequest, "the pod is locked: locking disables stopping (unlock it with PATCH /v1/pods/{podId} {\"locked\":false})")
	case action == "stop" && ds == "EXITED":
		return refuseV2("the pod is already stopped (desiredStatus EXITED)")
	case action == "restart" && ds == "EXITED":
		return refuseV2("the pod is stopped (desiredStatus EXITED): restart needs a running pod; start it with POST /v1/pods/{podId}/start")
	}
	return nil // v2's own reason, in v1 words (a cluster member pod, ...)
}

var (
	startPodPlan   = podActionPlan("start")
	stopPodPlan    = podActionPlan("stop")
	restartPodPlan = podActionPlan("restart")
)

// ---------------------------------------------------------------------------
// #11 POST /pods/{podId}/reset (P6)

const resetUnsupported = "reset is not supported by the v2 API: use restart for a running pod (POST /v1/pods/{podId}/restart), or stop then start " +
	"(to have the gateway emulate reset with restart or start instead, set reset_mode: restart (V1GW_RESET_MODE=restart))"

func resetPodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	if !req.Options.ResetRestart {
		return refuse(CodeResetRefused, resetUnsupported)
	}
	res := resetEmulated(ctx, req, c, id)
	if res.Status < 300 {
		// Only a reset that happened was emulated: a refusal carries no
		// X-Compat-Emulated.
		res.emulate("reset", CodeResetEmulated)
	}
	return res
}

// resetEmulated is reset as V1GW_RESET_MODE=restart emulates it: RUNNING →
// restart, EXITED/ERROR → start, PROVISIONING/STARTING → nothing to send
// (200 with a warning); anything else is refused.
func resetEmulated(ctx context.Context, req *Request, c Caller, id string) *Result {
	p, r := getV2Pod(ctx, req, c, id)
	if r != nil {
		return r
	}
	if p.Locked {
		return Fail(http.StatusBadRequest, "the pod is locked: locking disables resetting (unlock it with PATCH /v1/pods/{podId} {\"locked\":false})")
	}
	switch p.Status {
	case "RUNNING":
		return doPodAction(ctx, req, c, id, "restart")
	case "EXITED", "ERROR":
		return doPodAction(ctx, req, c, id, "start")
	case "PROVISIONING", "STARTING":
		// Already starting from scratch: what a reset (emulated by a
		// restart) asks for is under way.
		res := podAnswerOf(http.StatusOK, p)
		res.warn(CodePodAlreadyStarting, "the pod is still starting (v2 status "+p.Status+", v1 desiredStatus RUNNING): no restart was sent, since the pod is already starting from scratch")
		return res
	}
	return Fail(http.StatusBadRequest, "the pod is "+p.Status+" and cannot be reset")
}
