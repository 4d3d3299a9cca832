"""Curio's own requests to a czk serve (or cuzk) daemon, for bench/curio.sh.

    curio_client.py ADDR KIND DIR OUT [--miner N] [--sector N] [--task N]

Builds the SubmitProofRequest exactly as Curio's lib/ffi/cuzk_funcs.go (and,
for ps-* ids, tasks/proofshare/task_prove.go) does for KIND, from a czk
gen-* directory, and sends it with Prove (Curio's only call; its client in
lib/cuzk/client.go: insecure credentials, 256 MiB messages, the proving
timeout as the deadline). Writes the proof to OUT and prints one JSON line:
the request id, the wall time of the Prove call (what Curio waits for) and
the daemon's own figures (queue, SRS load, synthesis, prove, total).

KIND: porep (DIR/c1.json, the C1 envelope Curio builds with wrapC1Output),
ps-porep (the same C1 under ProofShare's id), snap (DIR/snap.json and
DIR/snap-partition-K.bin), window (DIR/post-window.json, vanilla-window.bin:
one vanilla proof per sector, partition_index 0, as compute_do.go sends
every partition), winning (DIR/post-winning.json, vanilla-winning.bin).
Stubs are generated at run time from czk's proto/cuzk/v1/proving.proto with
Debian's grpc_tools (run it with /usr/bin/python3).
"""
import json
import os
import sys
import tempfile
import time

import grpc
from grpc_tools import protoc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_gen = tempfile.mkdtemp(prefix="czk-curio-stubs-")
if protoc.main(["protoc", "-I" + os.path.join(ROOT, "proto"), "--python_out=" + _gen, "--grpc_python_out=" + _gen,
                "cuzk/v1/proving.proto"]) != 0:
    sys.exit("curio_client.py: protoc failed on proto/cuzk/v1/proving.proto")
sys.path.insert(0, _gen)
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as pbg  # noqa: E402

SIZES = {"2KiB": 2048, "8MiB": 8 << 20, "512MiB": 512 << 20, "32GiB": 32 << 30, "64GiB": 64 << 30}
SIZE_ORDER = ["2KiB", "8MiB", "512MiB", "32GiB", "64GiB"]


def size_of(name):
    for s in sorted(SIZE_ORDER, key=len, reverse=True):
        if s in name:
            return s
    sys.exit("curio_client.py: no sector size in '%s'" % name)


def go_bytes(b):
    return "[" + " ".join(str(x) for x in b) + "]"


def post(d, kind):
    with open(os.path.join(d, "post-%s.json" % kind)) as f:
        meta = json.load(f)
    with open(os.path.join(d, "vanilla-%s.bin" % kind), "rb") as f:
        blob = f.read()
    n = len(meta["sector_ids"])
    one = len(blob) // n
    return meta, [blob[i * one:(i + 1) * one] for i in range(n)]


def request(kind, d, miner, sector, task):
    if kind in ("porep", "ps-porep"):
        with open(os.path.join(d, "c1.json"), "rb") as f:
            env = f.read()
        e = json.loads(env)
        inner = json.loads(__import__("base64").b64decode(e["Phase1Out"]))
        size = SIZES[size_of(inner["registered_proof"])]
        # filecoin-proofs-api's RegisteredSealProof: V1 0..4, V1_1 5..9
        rp = SIZE_ORDER.index(size_of(inner["registered_proof"])) + (5 if "V1_1" in inner["registered_proof"] else 0)
        rid = ("porep-%d-%d" % (miner, sector) if kind == "porep" else "ps-porep-%d-%d-%d" % (miner, sector, task))
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=size,
                                     registered_proof=rp, priority=pb.NORMAL, vanilla_proof=env,
                                     sector_number=sector, miner_id=miner)
    if kind in ("snap", "ps-snap"):
        with open(os.path.join(d, "snap.json")) as f:
            meta = json.load(f)
        parts = []
        for k in range(meta["partitions"]):
            with open(os.path.join(d, "snap-partition-%d.bin" % k), "rb") as f:
                parts.append(f.read())
        s = size_of(meta["registered_update_proof"])
        rid = "snap-%d-%d" % (miner, sector) if kind == "snap" else "ps-snap-%d-%d-%d" % (miner, sector, task)
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.SNAP_DEALS_UPDATE, sector_size=SIZES[s],
                                     registered_proof=SIZE_ORDER.index(s), priority=pb.NORMAL, vanilla_proofs=parts,
                                     sector_number=sector, miner_id=miner, comm_r_old=bytes(meta["comm_r_old"]),
                                     comm_r_new=bytes(meta["comm_r_new"]), comm_d_new=bytes(meta["comm_d_new"]))
    if kind == "window":
        meta, sectors = post(d, "window")
        s = size_of(meta["registered_post_proof"])
        rnd = bytearray(meta["randomness"])
        rnd[31] &= 0x3f
        rnd = bytes(rnd)
        # RegisteredPoStProof: Winning 0..4, Window V1 5..9, Window V1_2 10..14
        rp = SIZE_ORDER.index(s) + (10 if "V1_2" in meta["registered_post_proof"] else 5)
        return pb.SubmitProofRequest(request_id="wdpost-%d-%d-%s" % (meta["miner_id"], 0, go_bytes(rnd[:8])),
                                     proof_kind=pb.WINDOW_POST_PARTITION, sector_size=SIZES[s], registered_proof=rp,
                                     priority=pb.HIGH, vanilla_proofs=sectors, miner_id=meta["miner_id"],
                                     randomness=rnd, partition_index=0)
    if kind == "winning":
        meta, sectors = post(d, "winning")
        s = size_of(meta["registered_post_proof"])
        rnd = bytes(meta["randomness"])
        return pb.SubmitProofRequest(request_id="winpost-%d-%s" % (meta["miner_id"], rnd[:8].hex()),
                                     proof_kind=pb.WINNING_POST, sector_size=SIZES[s],
                                     registered_proof=SIZE_ORDER.index(s), priority=pb.CRITICAL,
                                     vanilla_proofs=sectors, miner_id=meta["miner_id"], randomness=rnd)
    sys.exit("curio_client.py: unknown kind '%s'" % kind)


def main():
    a = sys.argv[1:]
    if len(a) < 4:
        sys.exit(__doc__)
    addr, kind, d, out = a[:4]
    opts = dict(zip(a[4::2], a[5::2]))
    miner, sector, task = int(opts.get("--miner", 1000)), int(opts.get("--sector", 1)), int(opts.get("--task", 7))
    req = request(kind, d, miner, sector, task)
    ch = grpc.insecure_channel(addr, options=[("grpc.max_send_message_length", 256 << 20),
                                              ("grpc.max_receive_message_length", 256 << 20)])
    stub = pbg.ProvingEngineStub(ch)
    t0 = time.time()
    res = stub.Prove(pb.ProveRequest(submit=req), timeout=float(opts.get("--deadline", 7200))).result
    wall = time.time() - t0
    ok = res.status == pb.AwaitProofResponse.COMPLETED and len(res.proof) > 0 and len(res.proof) % 192 == 0
    if ok:
        with open(out, "wb") as f:
            f.write(res.proof)
    print(json.dumps({"kind": kind, "request_id": req.request_id, "job_id": res.job_id, "status": res.status,
                      "error": res.error_message, "wall_s": round(wall, 3), "proof_bytes": len(res.proof),
                      "queue_wait_ms": res.queue_wait_ms, "srs_load_ms": res.srs_load_ms,
                      "synthesis_ms": res.synthesis_ms, "prove_ms": res.gpu_compute_ms, "total_ms": res.total_ms}))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
