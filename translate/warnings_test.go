package translate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every warning and refusal text the gateway can produce says what the
// gateway then does (issue 37 item 2). warningCases is the table: each row
// makes the gateway produce one note code and checks the text against the
// outcome; the rules every text of every row must keep are in
// checkNoteSaysWhatHappened. TestEveryNoteCodeIsInTheWarningsTable makes
// sure no code is left out: each is a row here, or is named with the test
// that produces it and checks its text.
type warningCase struct {
	name   string
	op     string
	opts   runOpts
	script []step
	code   string // the note the row produces
	status int
	check  func(t *testing.T, res *Result)
}

func warningCases() []warningCase {
	epParams := map[string]string{"endpointId": "ep1"}
	endpointPatched := []step{
		{method: "PATCH", path: "/v2/serverless/ep1", status: 200, body: endpoint("ep1")},
		catalogStep(),
		releasesStep("ep1", 2),
	}
	lenient := Options{Lenient: true}
	return []warningCase{
		{name: "endpoint update with templateId, no fact store: edits will not roll out (and they do not)",
			op: "UpdateEndpoint", opts: runOpts{params: epParams, body: `{"templateId":"tpl1"}`}, script: endpointPatched,
			code: CodeTemplateSnapshot, status: 200},
		{name: "endpoint update with templateId and a fact store: no warning, the link is recorded and edits roll out",
			op: "UpdateEndpoint", opts: runOpts{params: epParams, body: `{"templateId":"tpl1"}`, facts: newFakeFacts()}, script: endpointPatched,
			status: 200, check: func(t *testing.T, res *Result) {
				if hasNote(res, CodeTemplateSnapshot) {
					t.Errorf("warned %q although the template's edits roll out to the endpoint", res.Warnings)
				}
			}},
		{name: "lenient: interruptible dropped, bidPerGpu ignored; neither text says refused",
			op: "CreatePod", opts: runOpts{options: lenient, body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"interruptible":true,"bidPerGpu":0.2}`},
			script: []step{createStep(newPod("p1"))}, code: CodeLenientDropped, status: 201,
			check: func(t *testing.T, res *Result) {
				if !slices.Contains(res.Dropped, "interruptible") || !hasNote(res, CodeUnknownFields) {
					t.Errorf("dropped %v, notes %+v", res.Dropped, res.Notes)
				}
			}},
		{name: "strict: interruptible refused, naming the setting that would drop it",
			op: "CreatePod", opts: runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"interruptible":true,"bidPerGpu":0.2}`},
			code: CodeUntranslatableRefused, status: 400},
		{name: "gpuTypeIds in no serverless pool: refused in v1's words, naming the types that can run",
			op: "CreateEndpoint", opts: runOpts{body: `{"templateId":"t","name":"n","gpuTypeIds":["AMD Instinct MI300X OAM"]}`}, script: []step{catalogStep()},
			code: CodeV2LimitRefused, status: 400, check: func(t *testing.T, res *Result) {
				wantMessage(t, res, "none of AMD Instinct MI300X OAM can run serverless workers", "send one or more of: ", "NVIDIA L4")
			}},
		{name: "reset refused, naming reset_mode: restart",
			op: "ResetPod", opts: runOpts{params: map[string]string{"podId": "p1"}}, code: CodeResetRefused, status: 400,
			check: func(t *testing.T, res *Result) { wantMessage(t, res, "reset_mode: restart", "V1GW_RESET_MODE=restart") }},
		{name: "template readme without a fact store: lost, said so",
			op: "CreateTemplate", opts: runOpts{body: `{"name":"t","imageName":"i","readme":"# r"}`},
			script: []step{{method: "POST", path: "/v2/templates", status: 201, body: tpl("t1")}}, code: CodeReadmeDropped, status: 200,
			check: func(t *testing.T, res *Result) {
				if m := decodeV1(t, res.Body); m["readme"] != nil {
					t.Errorf("readme %v answered although not stored", m["readme"])
				}
			}},
		{name: "template readme with a fact store: kept, no warning",
			op: "CreateTemplate", opts: runOpts{body: `{"name":"t","imageName":"i","readme":"# r"}`, facts: newFakeFacts()},
			script: []step{{method: "POST", path: "/v2/templates", status: 201, body: tpl("t1")}}, status: 200,
			check: func(t *testing.T, res *Result) {
				if hasNote(res, CodeReadmeDropped) || decodeV1(t, res.Body)["readme"] != "# r" {
					t.Errorf("notes %+v, answer %s", res.Notes, res.Body)
				}
			}},
		{name: "CPU fields on a GPU endpoint: ignored, and not sent",
			op: "UpdateEndpoint", opts: runOpts{params: epParams, body: `{"cpuFlavorIds":["cpu3c"],"name":"n"}`},
			script: append([]step{epGetStep("ep1", endpoint("ep1"))}, endpointPatched...), code: CodeComputeFieldsIgnored, status: 200,
			check: func(t *testing.T, res *Result) { wantWarning(t, res, "ignored cpuFlavorIds") }},
		{name: "endpoint releases unreadable: version answered null, never absent",
			op: "GetEndpoint", opts: runOpts{params: epParams},
			script: []step{epGetStep("ep1", endpoint("ep1")), catalogStep(), {method: "GET", path: "/v2/serverless/ep1/releases", status: 500, body: problem(500, "boom")}},
			code:   CodeVersionOmitted, status: 200, check: func(t *testing.T, res *Result) {
				if v, ok := decodeV1(t, res.Body)["version"]; !ok || v != nil {
					t.Errorf("version not answered null although unread: %s", res.Body)
				}
			}},
		{name: "a pod placed outside dataCenterIds that could not be deleted: said, and the answer shows where it is",
			op: "CreatePod", opts: runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dataCenterIds":["EU-RO-1"]}`},
			script: []step{createStep(newPod("p1", set("dataCenterId", "US-TX-3"))), {method: "DELETE", path: "/v2/pods/p1", status: 500, body: problem(500, "boom")}},
			code:   CodePlacedOutsideDataCenters, status: 201,
			check: func(t *testing.T, res *Result) { wantWarning(t, res, "v2 placed the pod in US-TX-3") }},
		{name: "a soft constraint v2 cannot check: accepted, and what was not guaranteed is said",
			op: "CreatePod", opts: runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"minRAMPerGPU":16}`},
			script: []step{createStep(newPod("p1"))}, code: CodeSoftConstraintUnchecked, status: 201,
			check: func(t *testing.T, res *Result) {
				wantWarning(t, res, "16 GB of RAM per GPU cannot be checked")
				wantWarning(t, res, "field_policy minRAMPerGPU: refuse")
			}},
		{name: "a volume below v2's minimum: rounded up, and the extra storage billed is said",
			op: "CreatePod", opts: runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"volumeInGb":1}`},
			script: []step{createStep(newPod("p1"))}, code: CodeVolumeRoundedUp, status: 201,
			check: func(t *testing.T, res *Result) {
				wantWarning(t, res, "1 GB was rounded up to 10 GB")
				wantWarning(t, res, "billed for 9 GB of volume storage more than asked")
			}},
		{name: "template volume removed with a fact store: remembered, and what v2 keeps is said",
			op: "UpdateTemplate", opts: runOpts{params: map[string]string{"templateId": "t1"}, body: `{"volumeInGb":0}`, facts: newFakeFacts()},
			script: []step{{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")}}, code: CodeTemplateVolumeRemembered, status: 200,
			check: func(t *testing.T, res *Result) {
				wantWarning(t, res, "v2 cannot remove template t1's 20 GB volume")
				wantWarning(t, res, "outside the gateway still gets the volume")
				if decodeV1(t, res.Body)["volumeInGb"] != 0.0 {
					t.Errorf("answer %s", res.Body)
				}
			}},
		{name: "template volume removed without a fact store: refused, saying why",
			op: "UpdateTemplate", opts: runOpts{params: map[string]string{"templateId": "t1"}, body: `{"volumeInGb":0}`},
			script: []step{{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")}}, code: CodeV2LimitRefused, status: 400},
	}
}

// checkNoteSaysWhatHappened holds the rules every note's text keeps.
func checkNoteSaysWhatHappened(t *testing.T, res *Result, n Note) {
	t.Helper()
	msg := strings.ToLower(n.Message)
	if strings.Contains(msg, "/v2/") {
		t.Errorf("%s: %q points a v1 client at a v2 route", n.Code, n.Message)
	}
	refused := n.Code == CodeUntranslatableRefused || n.Code == CodeResetRefused || n.Code == CodeV2LimitRefused
	if refused != (res.Status >= 400) && n.Code != CodeStockOut {
		t.Errorf("%s with status %d", n.Code, res.Status)
	}
	if strings.Contains(msg, "refused") && res.Status < 400 {
		t.Errorf("%s: %q says refused, but the request was answered %d", n.Code, n.Message, res.Status)
	}
	if n.Code == CodeLenientDropped && (!slices.Contains(res.Dropped, n.Field) || res.Status >= 400) {
		t.Errorf("%s of %s: dropped %v, status %d", n.Code, n.Field, res.Dropped, res.Status)
	}
	if (n.Code == CodeUntranslatableRefused || n.Code == CodeResetRefused) && !strings.Contains(n.Message, "V1GW_") {
		t.Errorf("%s: %q does not name the setting that allows it", n.Code, n.Message)
	}
	if _, ok := NoteCodes[n.Code]; !ok {
		t.Errorf("note code %q is not in NoteCodes", n.Code)
	}
}

func hasNote(res *Result, code string) bool {
	return slices.ContainsFunc(res.Notes, func(n Note) bool { return n.Code == code })
}

func TestEveryWarningSaysWhatTheGatewayDid(t *testing.T) {
	for _, c := range warningCases() {
		t.Run(c.name, func(t *testing.T) {
			res, _ := run(t, c.op, c.opts, c.script...)
			wantStatus(t, res, c.status)
			if c.code != "" && !hasNote(res, c.code) {
				t.Errorf("no %s note: %+v", c.code, res.Notes)
			}
			for _, n := range res.Notes {
				checkNoteSaysWhatHappened(t, res, n)
			}
			if c.check != nil {
				c.check(t, res)
			}
		})
	}
}

// noteCodesTestedElsewhere names, for the codes not in warningCases, the
// test that produces the note and checks its text against what the gateway
// did.
var noteCodesTestedElsewhere = map[string]string{
	CodeUnknownFields:         "TestFieldsOutsideTheV1DocumentAreTranslatedOrIgnoredNeverRefused",
	CodeCandidatesUnranked:    "TestCreateGPUPodWithoutGPUTypeIDsChoosesFromTheCatalog",
	CodeLostReplyRecovered:    "TestCreatePodLostReply",
	CodeLockNotApplied:        "TestCreatePodLostReply",
	CodeAnswerUnreadable:      "TestUpdateEndpointErrors",
	CodeLoadBalancerEndpoint:  "TestListEndpoints",
	CodeGPUTypesOmitted:       "TestListEndpoints",
	CodeIdleTimeoutDropped:    "TestUpdateEndpoint",
	CodeGPUPoolHazard:         "TestCreatePodCandidates",
	CodeGPUTypesDropped:       "TestCreateEndpointBodyMapping",
	CodeTemplateDeleted:       "TestDeleteEndpoint",
	CodeTemplateNoRollout:     "TestTemplateUpdateRollsOutToTheEndpointsMadeFromIt",
	CodeCatalogCapped:         "TestListTemplates",
	CodeBillingGPUUnknown:     "TestPodBilling",
	CodeBillingCPUNoGPU:       "TestPodBilling",
	CodeRegistryUnset:         "TestDeleteRegistry",
	CodeGPUTypeChosen:         "TestCreateGPUPodWithoutGPUTypeIDsChoosesFromTheCatalog",
	CodeCPUFlavorChosen:       "TestCreateCPUEndpointWithoutCPUFlavorIDs",
	CodePodAlreadyStarting:    "TestPodActionsOnAPodStillStarting",
	CodePodAlreadyRunning:     "TestPodActionsOnAPodStillStarting",
	CodePublicKeyKept:         "TestUpdatePodKeepsPublicKey",
	CodeTemplateRolledOut:     "TestTemplateUpdateRollsOutToTheEndpointsMadeFromIt",
	CodeTemplateRolloutFailed: "TestTemplateUpdateRollsOutToTheEndpointsMadeFromIt",
	CodeTemplateIDUnknown:     "TestWorkersCarryTheirEndpointsTemplateID",
	CodeTemplateInlined:       "TestPodFromATemplateWithAVolumeAndVolumeZero",
	CodeResetEmulated:         "TestResetPod",
	CodeStockOut:              "TestStockOutIsANote",
	// The GraphQL door's codes are produced and checked in package graphql.
	CodeGraphQLRefused:          "graphql",
	CodeGraphQLFieldsUnanswered: "graphql",
	CodeGraphQLCloudNarrowed:    "graphql",
	CodeGraphQLDefaultTemplate:  "graphql",
	CodeGraphQLInputIgnored:     "graphql",
}

func TestEveryNoteCodeIsInTheWarningsTable(t *testing.T) {
	inTable := map[string]bool{}
	for _, c := range warningCases() {
		inTable[c.code] = true
	}
	var src strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	for code := range NoteCodes {
		if inTable[code] {
			continue
		}
		test, ok := noteCodesTestedElsewhere[code]
		switch {
		case !ok:
			t.Errorf("note code %s is neither a row of warningCases nor named in noteCodesTestedElsewhere", code)
		case test != "graphql" && !strings.Contains(src.String(), "func "+test+"("):
			t.Errorf("note code %s: the test named for it, %s, does not exist in package translate", code, test)
		}
	}
}
