// A second real gRPC client of czk serve: Node's @grpc/grpc-js, with the
// service loaded by @grpc/proto-loader from czk's own
// proto/cuzk/v1/proving.proto (npm packages pinned in package-lock.json).
// Calls every RPC once on the 2KiB PoSt vectors and writes
// OUT/node-window.proof and OUT/node-winning.proof for czk verify.
//
//     node grpc_client.mjs ADDR OUT        (ADDR: host:port or unix:///path)
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

const [addr, out] = process.argv.slice(2);
if (!addr || !out) {
    console.error('usage: node grpc_client.mjs ADDR OUT');
    process.exit(2);
}

const def = loader.loadSync('cuzk/v1/proving.proto', {
    includeDirs: [join(ROOT, 'proto')], keepCase: true, longs: Number, enums: String, defaults: true,
});
const { ProvingEngine } = grpc.loadPackageDefinition(def).cuzk.v1;
const client = new ProvingEngine(addr, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': 256 << 20, 'grpc.max_send_message_length': 256 << 20,
});

let failures = 0;
function check(cond, what) {
    console.log((cond ? 'ok   ' : 'FAIL ') + what);
    if (!cond) failures++;
    return cond;
}

// One call as a promise: [error, response].
function call(method, req) {
    return new Promise((resolve) => client[method](req, (err, resp) => resolve([err, resp])));
}

const vectors = join(ROOT, 'tests', 'filecoin', 'vectors');
function postRequest(kind, id) {
    const meta = JSON.parse(readFileSync(join(vectors, `post-${kind}.json`), 'utf8'));
    return {
        request_id: id,
        proof_kind: kind === 'window' ? 'WINDOW_POST_PARTITION' : 'WINNING_POST',
        registered_proof: kind === 'window' ? 10 : 0, // Window 2KiB V1_2, Winning 2KiB
        vanilla_proofs: [readFileSync(join(vectors, `vanilla-${kind}.bin`))],
        miner_id: meta.miner_id,
        randomness: Buffer.from(meta.randomness),
    };
}

function proven(res, what) {
    return check(res && res.status === 'COMPLETED' && res.proof.length === 192,
        `${what}: COMPLETED, 192 bytes (${res ? res.status + ' ' + res.error_message : 'no response'})`);
}

let [err, st] = await call('GetStatus', {});
check(!err && st.queues.length === 4, `GetStatus: ${st ? st.queues.length : 0} queues`);
const done0 = st ? st.total_proofs_completed : 0;

let pre;
[err, pre] = await call('PreloadSRS', { circuit_id: 'winning-2k' });
check(!err && !pre.already_loaded, `PreloadSRS winning-2k: loaded in ${pre ? pre.load_time_ms : '-'} ms`);

let sub;
[err, sub] = await call('SubmitProof', postRequest('window', 'node-window'));
check(!err && sub.job_id === 'node-window', `SubmitProof: job ${sub ? sub.job_id : err.details}`);

let res;
[err, res] = await call('AwaitProof', { job_id: 'node-window', timeout_ms: 0 });
if (proven(res, 'AwaitProof node-window')) writeFileSync(join(out, 'node-window.proof'), res.proof);

let pr;
[err, pr] = await call('Prove', { submit: postRequest('winning', 'node-winning') });
if (proven(pr && pr.result, 'Prove node-winning')) writeFileSync(join(out, 'node-winning.proof'), pr.result.proof);

let can;
[err, can] = await call('CancelProof', { job_id: 'node-window' });
check(!err && can.was_running === false, 'CancelProof of a finished job: was_running false');
[err] = await call('CancelProof', { job_id: 'node-nothing' });
check(err && err.code === grpc.status.NOT_FOUND, `CancelProof unknown: NOT_FOUND (${err ? err.code : 'none'})`);

const bad = postRequest('window', 'node-bad');
bad.proof_kind = 'PROOF_KIND_UNSPECIFIED';
[err] = await call('SubmitProof', bad);
check(err && err.code === grpc.status.INVALID_ARGUMENT && /proof_kind/.test(err.details),
    `SubmitProof without a kind: INVALID_ARGUMENT '${err ? err.details : ''}'`);

let m;
[err, m] = await call('GetMetrics', {});
check(!err && /cuzk_proofs_completed_total/.test(m.prometheus_text), 'GetMetrics: Prometheus text');

[err, st] = await call('GetStatus', {});
check(!err && st.total_proofs_completed === done0 + 2, `GetStatus: completed ${done0} -> ${st ? st.total_proofs_completed : '-'}`);

let ev;
[err, ev] = await call('EvictSRS', { circuit_id: 'winning-2k' });
check(!err && ev.was_loaded && ev.freed_bytes > 0, `EvictSRS winning-2k: ${ev ? ev.freed_bytes : '-'} bytes freed`);

client.close();
console.log(`node client: ${failures} failed`);
process.exit(failures ? 1 : 0);
