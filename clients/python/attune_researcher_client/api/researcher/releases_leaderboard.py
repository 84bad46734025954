from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error_output import ApiErrorOutput
from ...models.leaderboard_output import LeaderboardOutput
from typing import cast



def _get_kwargs(
    id: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/releases/{id}/leaderboard/".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiErrorOutput | LeaderboardOutput | None:
    if response.status_code == 200:
        response_200 = LeaderboardOutput.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = ApiErrorOutput.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ApiErrorOutput.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ApiErrorOutput.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = ApiErrorOutput.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiErrorOutput | LeaderboardOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,

) -> Response[ApiErrorOutput | LeaderboardOutput]:
    """  The release's standing leaderboard: one board per group of comparable finished runs the
    token may see (the admin's, in JSON); empty while no run has finished.

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | LeaderboardOutput]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    *,
    client: AuthenticatedClient,

) -> ApiErrorOutput | LeaderboardOutput | None:
    """  The release's standing leaderboard: one board per group of comparable finished runs the
    token may see (the admin's, in JSON); empty while no run has finished.

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | LeaderboardOutput
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,

) -> Response[ApiErrorOutput | LeaderboardOutput]:
    """  The release's standing leaderboard: one board per group of comparable finished runs the
    token may see (the admin's, in JSON); empty while no run has finished.

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | LeaderboardOutput]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,

) -> ApiErrorOutput | LeaderboardOutput | None:
    """  The release's standing leaderboard: one board per group of comparable finished runs the
    token may see (the admin's, in JSON); empty while no run has finished.

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | LeaderboardOutput
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
