"""
The HTTP protocol of pycelonis's get_celonis() and oauth2() (pycelonis 2.14.1, pycelonis_core
2.10.3), restated from what their source does (docs/assumptions.md cites it): pycelonis itself is
proprietary and never downloaded or vendored. The calls, their order, their headers, the status
handling and the field types the SDK parses are the SDK's; verification is stricter here (every
call checks svc-mock's certificate, where pycelonis's own client does not by default).
"""
import dataclasses
import datetime
import typing
from urllib.parse import urlsplit

import httpx

USER_AGENT = "pycelonis/2.14.1"
SCHEMES = {"APP_KEY": "AppKey", "USER_KEY": "Bearer"}


class PyCelonisPermissionError(Exception):
    """A 401 or 403."""


class PyCelonisNotFoundError(Exception):
    """A 404."""


class PyCelonisHTTPStatusError(Exception):
    """Any other error status."""


def check_url(url: str) -> str:
    """pycelonis's _check_url: http:// is refused, https:// added when missing, only the host kept."""
    if url.startswith("http://"):
        raise ValueError(f"HTTP is not supported: {url}, please use HTTPS.")
    if "://" not in url:
        url = f"https://{url}"
    return f"https://{urlsplit(url).netloc}"


@dataclasses.dataclass
class UserTransport:
    id: typing.Optional[str] = None
    email: typing.Optional[str] = None
    name: typing.Optional[str] = None
    teamName: typing.Optional[str] = None
    teamId: typing.Optional[str] = None
    teamDomain: typing.Optional[str] = None
    active: typing.Optional[bool] = None
    language: typing.Optional[str] = None
    timeZone: typing.Optional[str] = None
    role: typing.Optional[int] = None
    effectiveRole: typing.Optional[int] = None
    lastLogInDate: typing.Optional[datetime.datetime] = None
    groupIds: typing.Optional[typing.List[str]] = None
    cloudAdmin: typing.Optional[bool] = None
    nameOrEmail: typing.Optional[str] = None
    analyst: typing.Optional[bool] = None
    admin: typing.Optional[bool] = None
    member: typing.Optional[bool] = None
    nameAndEmail: typing.Optional[str] = None


@dataclasses.dataclass
class CloudPermissions:
    serviceName: typing.Optional[str] = None
    permissions: typing.Optional[typing.List[str]] = None


@dataclasses.dataclass
class TeamTransport:
    id: typing.Optional[str] = None
    name: typing.Optional[str] = None
    domain: typing.Optional[str] = None
    privacyType: typing.Optional[str] = None
    active: typing.Optional[bool] = None
    visible: typing.Optional[bool] = None
    trackingEnabled: typing.Optional[bool] = None


def _typed(value, annotation, where):
    """The value as the field's type says, or a TypeError (the SDK's models raise on a wrong type)."""
    if value is None:
        return None
    inner = [a for a in typing.get_args(annotation) if a is not type(None)]
    kind = inner[0] if inner else annotation
    if kind is datetime.datetime:
        if not isinstance(value, str):
            raise TypeError(f"{where}: expected a date-time string, got {value!r}")
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if typing.get_origin(kind) is list:
        (item,) = typing.get_args(kind)
        if not isinstance(value, list) or not all(isinstance(v, item) for v in value):
            raise TypeError(f"{where}: expected a list of {item.__name__}, got {value!r}")
        return value
    # bool is an int in Python; the SDK's integer fields take no booleans.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{where}: expected {kind.__name__}, got {value!r}")
    return value


def parse(model, data):
    """A model from a JSON object: known fields checked and converted, the rest ignored."""
    if not isinstance(data, dict):
        raise TypeError(f"{model.__name__}: expected an object, got {data!r}")
    hints = typing.get_type_hints(model)
    return model(**{name: _typed(data[name], hints[name], f"{model.__name__}.{name}") for name in hints if name in data})


def body_of(response: httpx.Response):
    """The answer's JSON when the status is a success, as pycelonis_core's client raises otherwise."""
    if response.status_code in (401, 403):
        raise PyCelonisPermissionError(response.text)
    if response.status_code == 404:
        raise PyCelonisNotFoundError(response.text)
    if response.is_error:
        raise PyCelonisHTTPStatusError(f"{response.status_code}: {response.text}")
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    return None


@dataclasses.dataclass
class Celonis:
    user: UserTransport
    permissions: typing.List[CloudPermissions]
    tracking_enabled: bool
    scheme: str


def get_celonis(base_url: str, api_token: str, key_type: typing.Optional[str] = None, verify=True) -> Celonis:
    """The calls get_celonis() makes, in its order, with its headers."""
    client = httpx.Client(base_url=check_url(base_url), headers={"User-Agent": USER_AGENT}, verify=verify)

    def get(path, scheme):
        return client.get(path, headers={"Authorization": f"{scheme} {api_token}"})

    if key_type is None:
        # Which scheme the key takes: AppKey first, Bearer when that is refused.
        scheme = "AppKey"
        if get("/api/cloud", scheme).status_code in (401, 403):
            scheme = "Bearer"
            get("/api/cloud", scheme)
    else:
        scheme = SCHEMES[key_type]
    user = parse(UserTransport, body_of(get("/api/cloud", scheme)))
    listed = body_of(get("/api/cloud/permissions", scheme))
    if not isinstance(listed, list):
        raise TypeError(f"permissions: expected a list, got {listed!r}")
    permissions = [parse(CloudPermissions, item) for item in listed]
    try:
        tracking = bool(parse(TeamTransport, body_of(get("/api/team", scheme))).trackingEnabled)
    except Exception:  # the SDK swallows any problem here: tracking off
        tracking = False
    return Celonis(user=user, permissions=permissions, tracking_enabled=tracking, scheme=scheme)


def oauth2(base_url: str, client_id: str, client_secret: str, scope: str, method: str = "basic") -> str:
    """pycelonis's oauth2(): the client credentials grant with a plain httpx.post, which verifies TLS."""
    form = {"grant_type": "client_credentials", "scope": scope}
    if method == "post":
        response = httpx.post(f"{check_url(base_url)}/oauth2/token", data={**form, "client_id": client_id, "client_secret": client_secret})
    else:
        response = httpx.post(f"{check_url(base_url)}/oauth2/token", data=form, auth=(client_id, client_secret))
    answer = body_of(response)
    assert isinstance(answer["expires_in"], int)
    return answer["access_token"]
