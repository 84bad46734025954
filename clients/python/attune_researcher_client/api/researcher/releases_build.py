from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error_output import ApiErrorOutput
from ...models.release_create_input import ReleaseCreateInput
from ...models.release_output import ReleaseOutput
from typing import cast



def _get_kwargs(
    *,
    body: ReleaseCreateInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/releases/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiErrorOutput | ReleaseOutput | None:
    if response.status_code == 202:
        response_202 = ReleaseOutput.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = ApiErrorOutput.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ApiErrorOutput.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ApiErrorOutput.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ApiErrorOutput.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = ApiErrorOutput.from_dict(response.json())



        return response_409

    if response.status_code == 429:
        response_429 = ApiErrorOutput.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiErrorOutput | ReleaseOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ReleaseCreateInput,

) -> Response[ApiErrorOutput | ReleaseOutput]:
    """ 
    Args:
        body (ReleaseCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | ReleaseOutput]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: ReleaseCreateInput,

) -> ApiErrorOutput | ReleaseOutput | None:
    """ 
    Args:
        body (ReleaseCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | ReleaseOutput
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ReleaseCreateInput,

) -> Response[ApiErrorOutput | ReleaseOutput]:
    """ 
    Args:
        body (ReleaseCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | ReleaseOutput]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ReleaseCreateInput,

) -> ApiErrorOutput | ReleaseOutput | None:
    """ 
    Args:
        body (ReleaseCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | ReleaseOutput
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
