from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error_output import ApiErrorOutput
from ...models.study_output import StudyOutput
from typing import cast



def _get_kwargs(
    slug: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/studies/{slug}/pause/".format(slug=quote(str(slug), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiErrorOutput | StudyOutput | None:
    if response.status_code == 200:
        response_200 = StudyOutput.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiErrorOutput | StudyOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiErrorOutput | StudyOutput]:
    """ 
    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | StudyOutput]
     """


    kwargs = _get_kwargs(
        slug=slug,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    slug: str,
    *,
    client: AuthenticatedClient,

) -> ApiErrorOutput | StudyOutput | None:
    """ 
    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | StudyOutput
     """


    return sync_detailed(
        slug=slug,
client=client,

    ).parsed

async def asyncio_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiErrorOutput | StudyOutput]:
    """ 
    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | StudyOutput]
     """


    kwargs = _get_kwargs(
        slug=slug,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient,

) -> ApiErrorOutput | StudyOutput | None:
    """ 
    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | StudyOutput
     """


    return (await asyncio_detailed(
        slug=slug,
client=client,

    )).parsed
