-- wrk script: one client_credentials token request per call.
-- Set CLIENT_ID and CLIENT_SECRET in the environment (URL-safe characters only).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "grant_type=client_credentials&scope=PRINCIPAL_ROLE%3AALL&client_id=" ..
           os.getenv("CLIENT_ID") .. "&client_secret=" .. os.getenv("CLIENT_SECRET")
