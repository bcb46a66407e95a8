-- test/bench/gateway.lua: wrk replays the pre-signed requests of the file
-- in the environment variable REQUESTS (test/bench/gateway_requests.py),
-- round-robin, and counts responses that are not 200.
local requests = {}
local n, i = 0, 0
local errors = 0

init = function(args)
  for line in io.lines(os.getenv("REQUESTS")) do
    local target, date, auth, body = line:match("([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)")
    n = n + 1
    requests[n] = wrk.format("POST", "/", {
      ["Host"] = os.getenv("HOSTPORT"),
      ["Content-Type"] = "application/x-amz-json-1.0", ["X-Amz-Target"] = target,
      ["X-Amz-Date"] = date, ["Authorization"] = auth}, body)
  end
  i = math.random(n)
end

request = function()
  i = i % n + 1
  return requests[i]
end

response = function(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end

done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.3f %.3f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
