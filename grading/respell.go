package grading

// RespellVerdicts writes the dataset's own spelling of every test id back
// into verdicts graded under normalized ids (expectedIDs: normF2P[i] is
// origF2P[i] as the reading spells it, likewise for P2P), so that records
// list FAIL_TO_PASS and PASS_TO_PASS tests as the dataset does. A reason
// naming a first failing test is rewritten with it.
func RespellVerdicts(v *Verdicts, normF2P, origF2P, normP2P, origP2P []string) {
	back := func(norm, orig []string) map[string]string {
		m := make(map[string]string, len(norm))
		for i, n := range norm {
			if _, dup := m[n]; !dup && i < len(orig) && n != orig[i] {
				m[n] = orig[i]
			}
		}
		return m
	}
	f2p, p2p := back(normF2P, origF2P), back(normP2P, origP2P)
	if len(f2p) == 0 && len(p2p) == 0 {
		return
	}
	fix := func(ids []string, m map[string]string) {
		for i, id := range ids {
			if o, ok := m[id]; ok {
				ids[i] = o
			}
		}
	}
	for _, x := range []*Verdict{&v.PolyBench, &v.SWEBench, &v.Strict} {
		reasoned := x.Status == StatusUnresolved && x.Reason != "" && x.Reason == failReason(*x)
		fix(x.FailToPass.Success, f2p)
		fix(x.FailToPass.Failure, f2p)
		fix(x.PassToPass.Success, p2p)
		fix(x.PassToPass.Failure, p2p)
		if reasoned {
			x.Reason = failReason(*x)
		}
	}
}
