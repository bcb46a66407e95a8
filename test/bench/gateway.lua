-- test/bench/gateway.lua: wrk replays the pre-signed requests of the file
-- in the environment variable REQUESTS (test/bench/gateway_requests.py),
-- round-robin.  No response() function: with one, wrk hands every
-- response's headers and body to Lua, which cost it more CPU per request
-- than the gateway's parsing of the request; done() reports wrk's own count
-- of answers with a status above 399 (summary.errors.status) instead.
local requests = {}
local n, i = 0, 0

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

done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.3f %.3f %d %.3f\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status, latency.mean / 1000))
end
