"""A real gRPC client of czk serve: Python's grpcio (Debian's python3-grpcio,
run with /usr/bin/python3), with stubs generated at run time by grpc_tools'
protoc from czk's own proto/cuzk/v1/proving.proto. Used by test_serve.sh.

    grpc_client.py ADDR OUT SCENARIO [ARGS...]

ADDR is host:port, unix:///path, or (scenario rr) a comma-separated list.
Scenarios (each prints one 'ok' / 'FAIL' line per check, exits 1 on any FAIL):

    rpcs       every RPC once on the 2KiB PoSt vectors; writes OUT/window.proof
               and OUT/winning.proof for czk verify
    errors     malformed and refused requests: the gRPC code and the message
    load [N [Q]]  N (16) concurrent clients, mixed priorities; CRITICAL overtakes Q (10) queued NORMAL
    faults     cancel (queued, running), AwaitProof timeout, a client that goes
               away mid-Prove, a 300 MiB message
    porep C1   Prove the C1 file (PoRep); writes OUT/porep.proof
    c1 C1      the C1 envelope with a bad base64 character, cut short, and
               whole without its parameters in the cache (FAILED, naming
               the file)
    retry ID SECONDS   three WindowPoSt jobs submitted ahead, then Prove ID,
               retrying UNAVAILABLE for SECONDS; writes OUT/ID.proof
    rr N [PREFIX]   N WindowPoSt Proves (ids PREFIX-i, default rr-i) over a
               round_robin channel (ADDR a list), each retried on UNAVAILABLE
    curio DIR_A DIR_B   Curio's own requests (test_curio.sh): two WindowPoSt
               partitions of one deadline (gen-post directories with one
               randomness and miner) under the one request_id Curio gives them,
               proven concurrently, B with a skipped sector removed (OUT/b-skipped is
               B's directory as proven); a retry; a WinningPoSt; writes
               OUT/a.proof, OUT/b.proof, OUT/winning.proof
"""
import json
import os
import sys
import tempfile
import threading
import time

import grpc
from grpc_tools import protoc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VECTORS = os.path.join(ROOT, "tests", "filecoin", "vectors")

_gen = tempfile.mkdtemp(prefix="czk-pystubs-")
if protoc.main(["protoc", "-I" + os.path.join(ROOT, "proto"), "--python_out=" + _gen, "--grpc_python_out=" + _gen,
                "cuzk/v1/proving.proto"]) != 0:
    sys.exit("grpc_client.py: protoc failed on proto/cuzk/v1/proving.proto")
sys.path.insert(0, _gen)
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as pbg  # noqa: E402

MAX = 256 << 20
failures = 0


def check(cond, what):
    global failures
    if cond:
        print("ok   " + what)
    else:
        failures += 1
        print("FAIL " + what)
    sys.stdout.flush()
    return cond


def channel(addr, round_robin=False):
    opts = [("grpc.max_send_message_length", 512 << 20), ("grpc.max_receive_message_length", MAX)]
    if round_robin:
        opts.append(("grpc.service_config", json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})))
        addr = "ipv4:" + addr
    return grpc.insecure_channel(addr, options=opts)


def vector(kind):
    with open(os.path.join(VECTORS, "vanilla-%s.bin" % kind), "rb") as f:
        vanilla = f.read()
    with open(os.path.join(VECTORS, "post-%s.json" % kind)) as f:
        meta = json.load(f)
    return vanilla, meta


WINDOW, WINDOW_META = vector("window")
WINNING, WINNING_META = vector("winning")
# filecoin-proofs-api's RegisteredPoStProof numbers: Winning 2KiB = 0, Window 2KiB V1_2 = 10
REG = {"window": 10, "winning": 0}


def post_request(kind="window", rid="", prio=pb.PRIORITY_UNSPECIFIED, vanilla=None):
    van, meta = (WINDOW, WINDOW_META) if kind == "window" else (WINNING, WINNING_META)
    return pb.SubmitProofRequest(
        request_id=rid, proof_kind=pb.WINDOW_POST_PARTITION if kind == "window" else pb.WINNING_POST,
        registered_proof=REG[kind], priority=prio, vanilla_proofs=[van if vanilla is None else vanilla],
        miner_id=meta["miner_id"], randomness=bytes(meta["randomness"]))


def code_of(fn):
    try:
        fn()
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


def completed(res, what):
    ok = check(res.status == pb.AwaitProofResponse.COMPLETED and len(res.proof) == 192,
               "%s: COMPLETED with a 192-byte proof (status %d, %d bytes, error '%s')"
               % (what, res.status, len(res.proof), res.error_message))
    return ok


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def status_of(stub):
    return stub.GetStatus(pb.GetStatusRequest())


def rpcs(stub, out):
    st = status_of(stub)
    kinds = sorted(q.proof_kind for q in st.queues)
    check(kinds == ["porep_c2", "snap_update", "window_post", "winning_post"], "GetStatus: a queue per kind %s" % kinds)
    base_done = st.total_proofs_completed
    pre = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
    check(not pre.already_loaded, "PreloadSRS wpost-2k: loaded (%d ms)" % pre.load_time_ms)
    pre2 = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
    check(pre2.already_loaded, "PreloadSRS again: already_loaded")
    st = status_of(stub)
    hot = [s for s in st.loaded_srs if s.circuit_id == "wpost-2k"]
    check(len(hot) == 1 and hot[0].tier == pb.SRSStatus.HOT and hot[0].size_bytes > 1 << 20 and hot[0].ref_count == 0,
          "GetStatus: wpost-2k HOT, %s bytes, no references" % (hot[0].size_bytes if hot else "-"))
    sub = stub.SubmitProof(post_request("window", "py-window"))
    check(sub.job_id == "py-window", "SubmitProof: job_id = request_id (%s)" % sub.job_id)
    again = stub.SubmitProof(post_request("window", "py-window"))
    check(again.job_id == "py-window", "SubmitProof of a pending id attaches")
    res = stub.AwaitProof(pb.AwaitProofRequest(job_id="py-window"))
    if completed(res, "AwaitProof py-window"):
        write(os.path.join(out, "window.proof"), res.proof)
    check(res.total_ms >= res.synthesis_ms and res.total_ms > 0, "AwaitProof timings: total %d ms >= synthesis %d ms"
          % (res.total_ms, res.synthesis_ms))
    res2 = stub.AwaitProof(pb.AwaitProofRequest(job_id="py-window", timeout_ms=1))
    check(res2.status == pb.AwaitProofResponse.COMPLETED and res2.proof == res.proof,
          "AwaitProof after completion: the same proof")
    uuid = stub.SubmitProof(post_request("window")).job_id
    check(len(uuid) == 36 and uuid[14] == "4", "SubmitProof without request_id: a UUID v4 (%s)" % uuid)
    completed(stub.AwaitProof(pb.AwaitProofRequest(job_id=uuid)), "AwaitProof of the UUID job")
    pr = stub.Prove(pb.ProveRequest(submit=post_request("winning", "py-winning")))
    if completed(pr.result, "Prove winning"):
        write(os.path.join(out, "winning.proof"), pr.result.proof)
    check(pr.result.job_id == "py-winning", "Prove: the result names the job")
    c = stub.CancelProof(pb.CancelProofRequest(job_id="py-winning"))
    check(not c.was_running, "CancelProof of a finished job: was_running false")
    code, _ = code_of(lambda: stub.CancelProof(pb.CancelProofRequest(job_id="no-such-job")))
    check(code == grpc.StatusCode.NOT_FOUND, "CancelProof of an unknown job: NOT_FOUND (%s)" % code)
    code, msg = code_of(lambda: stub.AwaitProof(pb.AwaitProofRequest(job_id="no-such-job")))
    check(code == grpc.StatusCode.NOT_FOUND and "no-such-job" in msg, "AwaitProof unknown: NOT_FOUND '%s'" % msg)
    m = stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    check("cuzk_proofs_completed_total" in m and "czk_stage_duration_seconds" in m,
          "GetMetrics: cuzk's and czk's metrics (%d bytes)" % len(m))
    st = status_of(stub)
    check(st.total_proofs_completed == base_done + 3, "GetStatus: completed %d -> %d" % (base_done,
                                                                                      st.total_proofs_completed))
    check(st.uptime_seconds < 3600 and st.pinned_memory_limit_bytes > 0, "GetStatus: uptime and budget")
    ev = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"))
    check(ev.was_loaded and ev.freed_bytes > 1 << 20, "EvictSRS wpost-2k: freed %d bytes" % ev.freed_bytes)
    ev2 = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"))
    check(not ev2.was_loaded, "EvictSRS again: was not loaded")
    code, msg = code_of(lambda: stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-3g")))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "porep-3g" in msg, "PreloadSRS porep-3g: '%s'" % msg)


def errors(stub, out):
    def expect(req, want, needle, what, call=None):
        code, msg = code_of(lambda: (call or stub.SubmitProof)(req))
        check(code == want and needle in msg, "%s: %s '%s'" % (what, code, msg[:160]))

    r = post_request()
    r.proof_kind = 9
    expect(r, grpc.StatusCode.INVALID_ARGUMENT, "kind", "proof_kind 9")
    r = post_request()
    r.proof_kind = pb.PROOF_KIND_UNSPECIFIED
    expect(r, grpc.StatusCode.INVALID_ARGUMENT, "kind", "proof_kind unspecified")
    expect(pb.ProveRequest(), grpc.StatusCode.INVALID_ARGUMENT, "submit", "Prove without submit", stub.Prove)
    expect(post_request(vanilla=WINDOW[:1000]), grpc.StatusCode.INVALID_ARGUMENT, "vanilla_proofs", "truncated vanilla")
    expect(post_request(vanilla=os.urandom(3000)), grpc.StatusCode.INVALID_ARGUMENT, "vanilla_proofs",
           "garbage vanilla")
    r = post_request()
    r.randomness = b"\x01" * 31
    expect(r, grpc.StatusCode.INVALID_ARGUMENT, "randomness", "31-byte randomness")
    # the window proof sent as a winning one: the wrong kind for the bytes
    r = post_request("winning", vanilla=WINDOW)
    expect(r, grpc.StatusCode.INVALID_ARGUMENT, "", "window vanilla as winning")
    porep = pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT,
                                  vanilla_proof=b'{"registered_proof": "StackedDrg2KiBV1_1"')
    expect(porep, grpc.StatusCode.INVALID_ARGUMENT, "vanilla_proof", "truncated C1 JSON")
    porep = pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=b"\x00\xff" * 100)
    expect(porep, grpc.StatusCode.INVALID_ARGUMENT, "vanilla_proof", "garbage C1")
    r = post_request(rid="bad\nid")
    expect(r, grpc.StatusCode.INVALID_ARGUMENT, "request_id", "a request_id with a newline")
    # a SnapDeals payload that is not an update of its registered proof (one partition proof of garbage for
    # a 32GiB update of 16 partitions) is refused (or, by a daemon that takes it, fails as a job)
    snap = pb.SubmitProofRequest(request_id="py-snap", proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=3,
                                 vanilla_proofs=[b"\x00" * 64], comm_r_old=b"\x01" * 32, comm_r_new=b"\x02" * 32,
                                 comm_d_new=b"\x03" * 32)
    code, msg = code_of(lambda: stub.SubmitProof(snap))
    if code == grpc.StatusCode.OK:
        res = stub.AwaitProof(pb.AwaitProofRequest(job_id="py-snap"))
        check(res.status == pb.AwaitProofResponse.FAILED and res.error_message,
              "SnapDeals: FAILED '%s'" % res.error_message[:120])
    else:
        check(code == grpc.StatusCode.INVALID_ARGUMENT, "SnapDeals payload refused: %s '%s'" % (code, msg[:120]))
    check(status_of(stub).uptime_seconds >= 0, "still serving after the bad requests")


def load(addr, stub, out, clients="16", queued="10"):
    clients, queued = int(clients), int(queued)
    prios = [pb.LOW, pb.NORMAL, pb.HIGH, pb.CRITICAL]
    base = status_of(stub).total_proofs_completed
    results = {}

    def one(i):
        ch = channel(addr)
        s = pbg.ProvingEngineStub(ch)
        kind = "window" if i % 3 else "winning"
        try:
            r = s.Prove(pb.ProveRequest(submit=post_request(kind, "load-%d" % i, prios[i % 4])), timeout=600)
            results[i] = r.result
        except grpc.RpcError as e:
            results[i] = e
        ch.close()

    ts = [threading.Thread(target=one, args=(i,)) for i in range(clients)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    good = sum(1 for r in results.values() if not isinstance(r, grpc.RpcError)
               and r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192)
    check(good == clients, "%d concurrent clients, mixed priorities: %d of %d COMPLETED" % (clients, good, clients))
    ids = sorted(r.job_id for r in results.values() if not isinstance(r, grpc.RpcError))
    check(ids == sorted("load-%d" % i for i in range(clients)), "each job once, under its own id")
    done = status_of(stub).total_proofs_completed
    check(done == base + clients, "GetStatus: completed rose by %d (%d -> %d)" % (clients, base, done))

    # CRITICAL submitted behind queued NORMAL work finishes before most of it
    n = queued
    t0 = time.time()
    sub_t = {}
    for i in range(n):
        sub_t["n%d" % i] = time.time()
        stub.SubmitProof(post_request("window", "n%d" % i, pb.NORMAL))
    sub_t["crit"] = time.time()
    stub.SubmitProof(post_request("window", "crit", pb.CRITICAL))
    fin = {}
    for jid in sub_t:
        r = stub.AwaitProof(pb.AwaitProofRequest(job_id=jid))
        completed(r, "AwaitProof " + jid)
        fin[jid] = sub_t[jid] + r.total_ms / 1e3 - t0
    after = sum(1 for i in range(n) if fin["n%d" % i] > fin["crit"])
    check(after >= n // 2, "CRITICAL overtakes: %d of %d queued NORMAL jobs finish after it (at %.2f s)"
          % (after, n, fin["crit"]))


def faults(addr, stub, out):
    # AwaitProof's timeout: TIMEOUT, and the job goes on
    ids = ["f%d" % i for i in range(4)]
    for j in ids:
        stub.SubmitProof(post_request("window", j, pb.LOW))
    r = stub.AwaitProof(pb.AwaitProofRequest(job_id=ids[3], timeout_ms=50))
    check(r.status == pb.AwaitProofResponse.TIMEOUT and not r.proof, "AwaitProof timeout_ms 50: TIMEOUT")
    # cancel: the last is queued behind three. (Whether its partition was
    # already synthesized, waiting for the prover, and so was_running,
    # depends on timing: a 2KiB PoSt synthesis takes milliseconds. The
    # engine's tests pin queued against started down.)
    c = stub.CancelProof(pb.CancelProofRequest(job_id=ids[3]))
    print("     (the queued job's was_running: %s)" % c.was_running)
    r = stub.AwaitProof(pb.AwaitProofRequest(job_id=ids[3]))
    check(r.status == pb.AwaitProofResponse.CANCELLED and "cancel" in r.error_message,
          "the cancelled job's waiter: CANCELLED '%s'" % r.error_message)
    for j in ids[:3]:
        completed(stub.AwaitProof(pb.AwaitProofRequest(job_id=j)), "the others: " + j)
    # a running job: one in the engine
    stub.SubmitProof(post_request("window", "frun", pb.NORMAL))
    for _ in range(2000):
        if any(q.proof_kind == "window_post" and q.in_progress for q in status_of(stub).queues):
            break
        time.sleep(0.002)
    c = stub.CancelProof(pb.CancelProofRequest(job_id="frun"))
    r = stub.AwaitProof(pb.AwaitProofRequest(job_id="frun"))
    if c.was_running:
        check(r.status == pb.AwaitProofResponse.CANCELLED, "CancelProof of a running job: was_running, CANCELLED")
    else:
        check(r.status in (pb.AwaitProofResponse.COMPLETED, pb.AwaitProofResponse.CANCELLED),
              "CancelProof raced the job's end: status %d" % r.status)
    # a Prove whose client goes away (its deadline; then one that cancels the
    # call): the job goes on and its result is there for the id
    # (the jobs are submitted first, so that they exist however late the
    # short calls reach a busy daemon; each Prove attaches to its job)
    for j in ("g0", "g1"):
        stub.SubmitProof(post_request("window", j, pb.HIGH))
    for j in ("gone", "gone2"):
        stub.SubmitProof(post_request("window", j, pb.LOW))
    code, _ = code_of(lambda: stub.Prove(pb.ProveRequest(submit=post_request("window", "gone", pb.LOW)), timeout=0.05))
    check(code == grpc.StatusCode.DEADLINE_EXCEEDED, "Prove with a 50 ms deadline: DEADLINE_EXCEEDED (%s)" % code)
    fut = stub.Prove.future(pb.ProveRequest(submit=post_request("window", "gone2", pb.LOW)))
    time.sleep(0.05)
    fut.cancel()
    check(fut.cancelled() or fut.exception() is not None, "the client cancelled its Prove call")
    for j in ("gone", "gone2"):
        completed(stub.AwaitProof(pb.AwaitProofRequest(job_id=j)), "the job of a Prove whose client left: " + j)
    for j in ("g0", "g1"):
        completed(stub.AwaitProof(pb.AwaitProofRequest(job_id=j)), j)
    # 300 MiB: over the 256 MiB limit, refused by gRPC itself; the daemon serves on
    big = post_request("window", "big", vanilla=b"\x00" * (300 << 20))
    code, msg = code_of(lambda: stub.SubmitProof(big))
    check(code == grpc.StatusCode.RESOURCE_EXHAUSTED, "a 300 MiB request: RESOURCE_EXHAUSTED (%s '%s')"
          % (code, msg[:100]))
    completed(stub.Prove(pb.ProveRequest(submit=post_request("window", "after-big"))).result,
              "a Prove after the 300 MiB request")


def porep(stub, out, c1):
    with open(c1, "rb") as f:
        env = f.read()
    r = stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(request_id="py-porep", proof_kind=pb.POREP_SEAL_COMMIT,
                                                                vanilla_proof=env)))
    if check(r.result.status == pb.AwaitProofResponse.COMPLETED and len(r.result.proof) % 192 == 0
             and r.result.proof, "Prove PoRep: COMPLETED, %d bytes ('%s')" % (len(r.result.proof),
                                                                           r.result.error_message)):
        write(os.path.join(out, "porep.proof"), r.result.proof)


def c1_cases(stub, out, c1):
    with open(c1) as f:
        env = json.load(f)

    def porep_req(doc, rid=""):
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT,
                                     vanilla_proof=json.dumps(doc).encode())

    bad = dict(env)
    p1 = env["Phase1Out"]
    bad["Phase1Out"] = p1[:1000] + "*" + p1[1001:]
    code, msg = code_of(lambda: stub.SubmitProof(porep_req(bad)))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "base64" in msg and "1000" in msg,
          "a C1 with a bad base64 character at offset 1000: %s '%s'" % (code, msg[:160]))
    cut = dict(env)
    cut["Phase1Out"] = p1[:len(p1) // 2 // 4 * 4]
    code, msg = code_of(lambda: stub.SubmitProof(porep_req(cut)))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "vanilla_proof" in msg,
          "a C1 whose phase-1 output is cut in half: %s '%s'" % (code, msg[:160]))
    r = stub.Prove(pb.ProveRequest(submit=porep_req(env, "py-c1-noparams")), timeout=300).result
    check(r.status == pb.AwaitProofResponse.FAILED and "v28-stacked-proof-of-replication" in r.error_message,
          "a whole C1 without its parameters: FAILED naming the file ('%s')" % r.error_message[:200])


def prove_retrying(stub, req, seconds):
    end = time.time() + seconds
    tries = 0
    while True:
        tries += 1
        try:
            return stub.Prove(pb.ProveRequest(submit=req), timeout=max(1.0, end - time.time())).result, tries
        except grpc.RpcError as e:
            if e.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED) or time.time() > end:
                raise
            time.sleep(0.2)


def retry(stub, out, jid, seconds):
    # work ahead of it, so that the daemon is killed while ID is in progress
    for i in range(3):
        stub.SubmitProof(post_request("window", "%s-ahead-%d" % (jid, i)))
    r, tries = prove_retrying(stub, post_request("window", jid), float(seconds))
    if completed(r, "Prove %s after %d tries" % (jid, tries)):
        write(os.path.join(out, jid + ".proof"), r.proof)


def rr(addr, out, n, prefix="rr"):
    ch = channel(addr, round_robin=True)
    grpc.channel_ready_future(ch).result(timeout=30)
    time.sleep(0.5)  # ready is one address connected; let the others connect too
    stub = pbg.ProvingEngineStub(ch)
    res = {}

    def one(i):
        try:
            res[i] = prove_retrying(stub, post_request("window", "%s-%d" % (prefix, i)), 300)[0]
        except grpc.RpcError as e:
            res[i] = e

    ts = [threading.Thread(target=one, args=(i,)) for i in range(int(n))]
    for t in ts:
        t.start()
        time.sleep(0.05)
    for t in ts:
        t.join()
    good = sum(1 for r in res.values() if not isinstance(r, grpc.RpcError)
               and r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192)
    check(good == int(n), "round_robin over %s: %d of %s COMPLETED" % (addr, good, n))


def go_bytes(b):
    """Go's fmt %d of a []byte: "[12 34 56]"."""
    return "[" + " ".join(str(x) for x in b) + "]"


def post_dir(d, kind="window"):
    with open(os.path.join(d, "post-%s.json" % kind)) as f:
        meta = json.load(f)
    with open(os.path.join(d, "vanilla-%s.bin" % kind), "rb") as f:
        blob = f.read()
    n = len(meta["sector_ids"])
    one = len(blob) // n
    return meta, [blob[i * one:(i + 1) * one] for i in range(n)]


def curio_window(meta, sectors, randomness):
    """lib/ffi/cuzk_funcs.go WindowPoStCuzk: one per-sector vanilla proof each
    (skipped sectors removed), partition_index 0, HIGH, the id of the deadline."""
    miner = meta["miner_id"]
    return pb.SubmitProofRequest(
        request_id="wdpost-%d-%d-%s" % (miner, 0, go_bytes(randomness[:8])),
        proof_kind=pb.WINDOW_POST_PARTITION, sector_size=2048, registered_proof=10, priority=pb.HIGH,
        vanilla_proofs=sectors, miner_id=miner, randomness=randomness, partition_index=0)


def curio(stub, out, dir_a, dir_b):
    meta_a, sec_a = post_dir(dir_a)
    meta_b, sec_b = post_dir(dir_b)
    rnd = bytearray(meta_a["randomness"])
    rnd[31] &= 0x3f  # tasks/window/compute_do.go masks it so
    rnd = bytes(rnd)
    check(rnd == bytes(meta_a["randomness"]) == bytes(meta_b["randomness"]) and meta_a["miner_id"] == meta_b["miner_id"]
          and meta_a["sector_ids"] != meta_b["sector_ids"], "two partitions of one deadline: one randomness and miner")
    # B's second sector was skipped: Curio drops its proof (compute_do.go compacts vproofs)
    skipped = dict(meta_b)
    c = len(meta_b["challenges"]) // len(meta_b["sector_ids"])
    skipped["sector_ids"] = meta_b["sector_ids"][:1]
    skipped["comm_r"] = meta_b["comm_r"][:1]
    skipped["challenges"] = meta_b["challenges"][:c]
    os.makedirs(os.path.join(out, "b-skipped"), exist_ok=True)
    with open(os.path.join(out, "b-skipped", "post-window.json"), "w") as f:
        json.dump(skipped, f)
    write(os.path.join(out, "b-skipped", "vanilla-window.bin"), sec_b[0])
    req_a, req_b = curio_window(meta_a, sec_a, rnd), curio_window(meta_b, sec_b[:1], rnd)
    check(req_a.request_id == req_b.request_id, "one request_id for both partitions: %s" % req_a.request_id)
    res = {}

    def prove(name, req):
        try:
            res[name] = stub.Prove(pb.ProveRequest(submit=req), timeout=600).result
        except grpc.RpcError as e:
            res[name] = e

    ts = [threading.Thread(target=prove, args=x) for x in (("a", req_a), ("b", req_b))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for name in ("a", "b"):
        r = res[name]
        if isinstance(r, grpc.RpcError):
            check(False, "Prove of partition %s: %s %s" % (name, r.code(), r.details()))
        elif completed(r, "Prove of partition %s" % name):
            write(os.path.join(out, name + ".proof"), r.proof)
    ra, rb = res["a"], res["b"]
    if isinstance(ra, grpc.RpcError) or isinstance(rb, grpc.RpcError):
        return
    check(ra.proof != rb.proof, "the two partitions got different proofs")
    rid = req_a.request_id
    ids = sorted([ra.job_id, rb.job_id], key=len)
    check(ids[0] == rid and ids[1].startswith(rid + "~") and len(ids[1]) == len(rid) + 17,
          "job ids: the request_id, and request_id~<16 hex> for the other request (%s)" % ids)
    # Curio's retry of partition B (its Prove timed out, say): the same proof, not proven again
    again = stub.Prove(pb.ProveRequest(submit=req_b), timeout=600).result
    check(again.proof == rb.proof and again.job_id == rb.job_id, "a retry of B gets B's proof (job %s)" % again.job_id)
    # WinningPoSt: lib/ffi/cuzk_funcs.go WinningPoStCuzk
    wmeta = WINNING_META
    wr = bytes(wmeta["randomness"])
    w = stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
        request_id="winpost-%d-%s" % (wmeta["miner_id"], wr[:8].hex()), proof_kind=pb.WINNING_POST,
        sector_size=2048, registered_proof=0, priority=pb.CRITICAL, vanilla_proofs=[WINNING],
        miner_id=wmeta["miner_id"], randomness=wr)), timeout=600).result
    if completed(w, "Prove of a WinningPoSt (%s)" % w.job_id):
        write(os.path.join(out, "winning.proof"), w.proof)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    addr, out, scen = sys.argv[1], sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    if scen == "rr":
        rr(addr, out, *args)
    else:
        ch = channel(addr)
        grpc.channel_ready_future(ch).result(timeout=30)
        stub = pbg.ProvingEngineStub(ch)
        if scen == "rpcs":
            rpcs(stub, out)
        elif scen == "errors":
            errors(stub, out)
        elif scen == "load":
            load(addr, stub, out, *args)
        elif scen == "faults":
            faults(addr, stub, out)
        elif scen == "c1":
            c1_cases(stub, out, *args)
        elif scen == "porep":
            porep(stub, out, *args)
        elif scen == "retry":
            retry(stub, out, *args)
        elif scen == "curio":
            curio(stub, out, *args)
        else:
            sys.exit("grpc_client.py: unknown scenario " + scen)
    print("%s: %d failed" % (scen, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
