-- wrk script: POSTs one remote-signing request (a GET of an object inside the table) per call.
-- Set SIGN_URI to the object URL and AUTH to "Bearer <token>" in the environment.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = os.getenv("AUTH")
wrk.body = '{"region":"us-east-1","method":"GET","headers":{"x-amz-content-sha256":' ..
           '["UNSIGNED-PAYLOAD"]},"uri":"' .. os.getenv("SIGN_URI") .. '"}'
