-- wrk script: POSTs the scene files named in SCENES (colon-separated), round-robin, as
-- application/json to the path in RENDER_PATH (default /v1/render). With STOP_AFTER set (use
-- one wrk thread), wrk exits after that many responses, printing the status counts (wrk itself
-- would sleep out the whole -d), so a run is bounded in count as well as by -d.
-- Non-2xx responses are counted and reported at the end.
local bodies = {}
for path in string.gmatch(os.getenv("SCENES") or "", "[^:]+") do
  local f = assert(io.open(path, "rb"))
  bodies[#bodies + 1] = f:read("*a")
  f:close()
end
assert(#bodies > 0, "set SCENES to one or more scene files, separated by ':'")
local render_path = os.getenv("RENDER_PATH") or "/v1/render"
local stop_after = tonumber(os.getenv("STOP_AFTER") or "0")
local next_body, seen = 0, 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function request()
  next_body = next_body % #bodies + 1
  return wrk.format("POST", render_path, {["Content-Type"] = "application/json"}, bodies[next_body])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  seen = seen + 1
  if stop_after > 0 and seen >= stop_after then
    for status, n in pairs(statuses) do io.write(string.format("status %d: %d\n", status, n)) end
    io.write(string.format("stopped after %d responses\n", seen))
    io.stdout:flush()
    os.exit(0)
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, n in pairs(counts) do io.write(string.format("status %d: %d\n", status, n)) end
  end
  io.write(string.format("p50_ms %.2f\np90_ms %.2f\np99_ms %.2f\nrequests %d\nrps %.2f\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.requests / (summary.duration / 1e6)))
end
