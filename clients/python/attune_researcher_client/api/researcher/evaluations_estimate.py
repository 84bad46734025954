from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error_output import ApiErrorOutput
from ...models.estimate_output import EstimateOutput
from ...models.run_create_input import RunCreateInput
from typing import cast



def _get_kwargs(
    *,
    body: RunCreateInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/evaluations/estimate/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiErrorOutput | EstimateOutput | None:
    if response.status_code == 200:
        response_200 = EstimateOutput.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiErrorOutput | EstimateOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RunCreateInput,

) -> Response[ApiErrorOutput | EstimateOutput]:
    """ 
    Args:
        body (RunCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | EstimateOutput]
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
    body: RunCreateInput,

) -> ApiErrorOutput | EstimateOutput | None:
    """ 
    Args:
        body (RunCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | EstimateOutput
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RunCreateInput,

) -> Response[ApiErrorOutput | EstimateOutput]:
    """ 
    Args:
        body (RunCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiErrorOutput | EstimateOutput]
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
    body: RunCreateInput,

) -> ApiErrorOutput | EstimateOutput | None:
    """ 
    Args:
        body (RunCreateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiErrorOutput | EstimateOutput
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
