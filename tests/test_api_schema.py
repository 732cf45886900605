"""The JSON API fuzzed from its own OpenAPI schema with schemathesis (issue 27).

Every generated request must get a documented status with a documented content type and a body that
matches its schema, and no 5xx but 503 (busy) and 504 (over the time limit), which the server answers
by design. Kept short: a bounded number of examples per operation, puzzles generated cheaply.
"""

from __future__ import annotations

from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")
pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from snapsolve.web.app import Settings, create_app  # noqa: E402

#: Examples per API operation.
EXAMPLES = 20
CHECKS = [status_code_conformance, content_type_conformance, response_headers_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def api():
    from schemathesis.python import asgi

    app = create_app(Settings(workers=1, timeout=20))
    try:  # schemathesis starts the app's lifespan (its worker pool) on the first request, once
        yield schemathesis.openapi.from_asgi("/openapi.json", app)
    finally:
        if hasattr(asgi, "shutdown_lifespans"):  # else at the interpreter's exit
            asgi.shutdown_lifespans()  # the pool stopped, its private folder removed
            assert not Path(app.state.work.root).exists()


def test_api_answers_by_its_schema(api):
    operations = [result.ok() for result in api.get_all_operations()]
    assert {op.path for op in operations} >= {"/api/solve", "/api/generate", "/api/health"}
    statuses = []
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def answers_by_schema(case):
            if case.path == "/api/generate" and isinstance(case.query, dict):
                case.query["count"] = 1  # a puzzle takes the generator a while; the other parameters are fuzzed
            response = case.call()
            statuses.append(response.status_code)
            assert response.status_code < 500 or response.status_code in (503, 504), (case.path, response.text)
            case.validate_response(response, checks=CHECKS)

        answers_by_schema()
    assert 200 in statuses and any(400 <= code < 500 for code in statuses)
