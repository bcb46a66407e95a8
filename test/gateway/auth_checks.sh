# test/gateway/auth_checks.sh: the authentication and authorization checks
# (sourced by test/t_gateway_auth.sh against hroe-gateway and by
# test/t_http_server.sh against the in-server HTTP workers, after gw_setup
# and gw_env, with GW_URL set): DynamoDB's exact error bodies for unsigned,
# incomplete, wrong secret, unknown key, expired and future dates, a wrong
# scope, Host not signed, a session token, a body altered after signing; a
# role without grants (AccessDeniedException, nothing written), grants
# deciding, the role reset after each call; a key created again with a new
# secret (the old one refused at once, whatever the key cache holds), a
# revoked key refused at once (run last: it revokes $GW_KEY).
BAD_SIG='The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'

check "signed ListTables: 200, x-amz-crc32 right" has '^200 crc32-ok \{"TableNames"' raw ListTables '{}'
# DescribeEndpoints: the address the client reached (its Host, port included
# when named), DynamoDB's regional endpoint when the Host is no host name
check "DescribeEndpoints: the Host reached, with its port" has \
	'^200 crc32-ok \{"Endpoints":\[\{"Address":"db\.example\.test:8443","CachePeriodInMinutes":1440\}\]\}$' \
	raw DescribeEndpoints '{}' --header 'Host: db.example.test:8443'
check "DescribeEndpoints: a Host without a port, an IPv6 literal" bash -c "
	/usr/bin/python3 test/gateway/raw.py '$GW_URL' send DescribeEndpoints '{}' --header 'Host: dynamodb.example.test' | grep -q '\"Address\":\"dynamodb.example.test\"' &&
	/usr/bin/python3 test/gateway/raw.py '$GW_URL' send DescribeEndpoints '{}' --header 'Host: [::1]:8000' | grep -q '\"Address\":\"\[::1\]:8000\"'"
check "DescribeEndpoints: a Host that is no host name answers the regional endpoint" has \
	'"Address":"dynamodb\.[a-z0-9-]+\.amazonaws\.com"' raw DescribeEndpoints '{}' --header 'Host: evil"host/<x>'
check "DescribeEndpoints: unsigned, refused" has 'MissingAuthenticationTokenException' \
	raw DescribeEndpoints '{}' --unsigned
check "unsigned: MissingAuthenticationTokenException" has \
	'^400 crc32-ok \{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","message":"Request is missing Authentication Token"\}$' \
	raw ListTables '{}' --unsigned
check "incomplete Authorization: IncompleteSignatureException" has \
	"^400 crc32-ok \{\"__type\":\"com.amazon.coral.service#IncompleteSignatureException\",\"message\":\"Authorization header requires 'Signature' parameter. Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 Credential=x\"\}" \
	raw ListTables '{}' --unsigned --header 'Authorization: AWS4-HMAC-SHA256 Credential=x' --header 'X-Amz-Date: 20260101T000000Z'
check "wrong secret: InvalidSignatureException" has \
	"^400 crc32-ok \{\"__type\":\"com.amazon.coral.service#InvalidSignatureException\",\"message\":\"$BAD_SIG\"\}$" \
	raw ListTables '{}' --secret wrong
check "unknown key: UnrecognizedClientException" has \
	'^400 crc32-ok \{"__type":"com.amazon.coral.service#UnrecognizedClientException","message":"The security token included in the request is invalid."\}$' \
	raw ListTables '{}' --key nosuchkey
check "signed 20 minutes ago: Signature expired" has \
	'^400 crc32-ok \{"__type":"com.amazon.coral.service#InvalidSignatureException","message":"Signature expired: [0-9]{8}T[0-9]{6}Z is now earlier than [0-9]{8}T[0-9]{6}Z \([0-9]{8}T[0-9]{6}Z - 15 min.\)"\}$' \
	raw ListTables '{}' --age 1200
check "signed 14 minutes ago: accepted (AWS's 15-minute skew)" has '^200 ' raw ListTables '{}' --age 840
check "signed 20 minutes ahead: Signature not yet current" has \
	'"message":"Signature not yet current: [0-9]{8}T[0-9]{6}Z is still later than [0-9]{8}T[0-9]{6}Z \([0-9]{8}T[0-9]{6}Z \+ 15 min.\)"' \
	raw ListTables '{}' --age -1200
check "scoped to another service: InvalidSignatureException" has \
	"^400 crc32-ok \{\"__type\":\"com.amazon.coral.service#InvalidSignatureException\",\"message\":\"Credential should be scoped to correct service: 'dynamodb'.\"\}$" \
	raw ListTables '{}' --service s3
check "Host not signed: InvalidSignatureException" has \
	"\"message\":\"'Host' must be a 'SignedHeader' in the AWS Authorization.\"" raw ListTables '{}' --no-host
check "session token: UnrecognizedClientException" has 'UnrecognizedClientException' \
	raw ListTables '{}' --header 'X-Amz-Security-Token: abc'
check "body altered after signing: InvalidSignatureException" has 'InvalidSignatureException' \
	/usr/bin/python3 -c "
import sys; sys.path.insert(0, 'test/gateway'); import raw, http.client, os, urllib.parse
u = urllib.parse.urlparse('$GW_URL'); h = {'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.ListTables'}
raw.sign('POST', u.netloc, b'{}', h, os.environ['AWS_ACCESS_KEY_ID'], os.environ['AWS_SECRET_ACCESS_KEY'])
c = http.client.HTTPConnection(u.hostname, u.port); c.request('POST', '/', body=b'{\"Limit\": 1}', headers=h); print(c.getresponse().read().decode())"

# authorization: PostgreSQL's privileges of the key's role
check "CreateTable as gw_app" has '^200 ' raw CreateTable '{"TableName": "auth_t", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}'
check "PutItem as gw_app" has '^200 ' raw PutItem '{"TableName": "auth_t", "Item": {"pk": {"S": "a"}}}'
check "the table belongs to the key's role" has '^gw_app$' psql -XAtq -d $GW_DB -c "SELECT tableowner FROM pg_tables WHERE tablename = 'auth_t'"
check "a role without grants: GetItem is AccessDeniedException" has \
	'^400 crc32-ok \{"__type":"com.amazon.coral.service#AccessDeniedException","message":"User: gw_nogrant is not authorized to perform: dynamodb:GetItem' \
	raw GetItem '{"TableName": "auth_t", "Key": {"pk": {"S": "a"}}}' --key "$GW_NOGRANT_KEY"
check "a role without grants: PutItem is AccessDeniedException, nothing written" has 'AccessDeniedException' \
	raw PutItem '{"TableName": "auth_t", "Item": {"pk": {"S": "b"}}}' --key "$GW_NOGRANT_KEY"
check "... and the row is absent" has '^0$' psql -XAtq -d $GW_DB -c "SELECT count(*) FROM gw_app.auth_t WHERE pk::text = 'b'"
check "grants decide: after GRANT, the same key reads" bash -c "
	psql -XAtq -d $GW_DB -c 'GRANT USAGE ON SCHEMA hroe, gw_app TO gw_nogrant; GRANT SELECT ON gw_app.auth_t TO gw_nogrant' &&
	/usr/bin/python3 test/gateway/raw.py '$GW_URL' send GetItem '{\"TableName\": \"auth_t\", \"Key\": {\"pk\": {\"S\": \"a\"}}}' --key '$GW_NOGRANT_KEY' | grep -q '^200 .*Item'"
check "the connection's role is reset after each call" has '^200 ' raw PutItem '{"TableName": "auth_t", "Item": {"pk": {"S": "c"}}}'
# a key id deleted and created again with another secret, while the gateway
# caches the first (a TTL of 60 s here): the old secret runs nothing
check "a key created again: its old, cached secret is refused at once (InvalidSignatureException)" \
	has 'InvalidSignatureException' bash -c "
	psql -XAtq -d $GW_DB -c \"SELECT hroe.create_access_key('gw_app', 'gwrecreated', 'oldsecret')\" >/dev/null &&
	/usr/bin/python3 test/gateway/raw.py '$GW_URL' send ListTables '{}' --key gwrecreated --secret oldsecret | grep -q '^200 ' &&
	psql -XAtq -d $GW_DB -c \"DELETE FROM hroe.access_keys WHERE access_key_id = 'gwrecreated'\" \
		-c \"SELECT hroe.create_access_key('gw_app', 'gwrecreated', 'newsecret')\" >/dev/null &&
	/usr/bin/python3 test/gateway/raw.py '$GW_URL' send ListTables '{}' --key gwrecreated --secret oldsecret"
check "... and its new secret works at once" has '^200 ' raw ListTables '{}' --key gwrecreated --secret newsecret
check "revoked key: UnrecognizedClientException at once" bash -c "
	psql -XAtq -d $GW_DB -c \"SELECT hroe.revoke_access_key('$GW_KEY')\" | grep -q t &&
	/usr/bin/python3 test/gateway/raw.py '$GW_URL' send ListTables '{}' | grep -q UnrecognizedClientException"
check "generated keys: 20-character id, 40-character secret, not readable by PUBLIC" has '^20\|40\|false$' psql -XAtq -d $GW_DB -c \
	"SELECT length(access_key_id) || '|' || length(secret_access_key) || '|' || has_table_privilege('gw_app', 'hroe.access_keys', 'SELECT') FROM hroe.create_access_key('gw_app')"
