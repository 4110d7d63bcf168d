-- wrk script: every request posts $WRK_PICTURE as DeepStack's multipart form (field "image"), as
-- Frigate, Home Assistant and Blue Iris do; at the end, one JSON line: requests, seconds, statuses,
-- socket errors, requests per second, latency percentiles in milliseconds.
local f = assert(io.open(os.getenv("WRK_PICTURE"), "rb"))
local picture = f:read("*a")
f:close()
local boundary = "----vision-tasks-bench"
wrk.method = "POST"
wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
wrk.body = "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"image\"; filename=\"image.jpg\"\r\n"
  .. "Content-Type: image/jpeg\r\n\r\n" .. picture .. "\r\n--" .. boundary .. "--\r\n"

local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end

function done(summary, latency, requests)
  local merged = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do merged[k] = (merged[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(merged) do table.insert(parts, string.format('"%d": %d', k, v)) end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "statuses": {%s}, "socketErrors": %d, "ok": %d, "okPerSecond": %.2f, '
      .. '"p50": %.2f, "p90": %.2f, "p99": %.2f, "max": %.2f}\n',
    summary.requests, seconds, table.concat(parts, ", "), e.connect + e.read + e.write + e.timeout,
    merged[200] or 0, (merged[200] or 0) / seconds, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
