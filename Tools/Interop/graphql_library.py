"""A small stateful GraphQL API for the interop differential (sse_graphql.py): a library of books served by
strawberry-graphql with batching on (a JSON array body), and Apollo's automatic persisted queries in a small ASGI
layer in front of it, since strawberry has none. `app()` makes a Starlette app with a fresh copy of the books at
/graphql (POST and GET)."""

import hashlib
import json
from typing import Optional

import strawberry
from starlette.applications import Starlette
from starlette.routing import Route
from strawberry.asgi import GraphQL
from strawberry.schema.config import StrawberryConfig


SEED = [
    {"id": 1, "title": "A Wizard of Earthsea", "author": "Ursula K. Le Guin", "year": 1968, "stars": [5, 4], "tags": ["fantasy"]},
    {"id": 2, "title": "The Left Hand of Darkness", "author": "Ursula K. Le Guin", "year": 1969, "stars": [5], "tags": ["sf"]},
    {"id": 3, "title": "Kindred", "author": "Octavia E. Butler", "year": 1979, "stars": [4, 4, 5], "tags": []},
    {"id": 4, "title": "Dune", "author": "Frank Herbert", "year": 1965, "stars": [3], "tags": ["sf", "desert"]},
]


@strawberry.type
class Book:
    id: int
    title: str
    author: str
    year: int
    stars: list[int]
    tags: list[str]

    @strawberry.field
    def average_stars(self) -> Optional[float]:
        return round(sum(self.stars) / len(self.stars), 3) if self.stars else None


@strawberry.type
class Stats:
    count: int
    total_stars: int
    authors: list[str]


@strawberry.input
class BookInput:
    title: str
    author: str
    year: int
    tags: list[str] = strawberry.field(default_factory=list)


def library(info) -> dict:
    return info.context["library"]


def book(info, id: int) -> Optional[Book]:
    found = library(info).get(id)
    return Book(**found) if found else None


@strawberry.type
class Query:
    @strawberry.field
    def hello(self, name: str) -> str:
        return f"Hello, {name}!"

    @strawberry.field
    def book(self, info: strawberry.Info, id: int) -> Optional[Book]:
        return book(info, id)

    @strawberry.field
    def strict_book(self, info: strawberry.Info, id: int) -> Book:
        found = book(info, id)
        if found is None:
            raise ValueError(f"no book with id {id}")
        return found

    @strawberry.field
    def books(self, info: strawberry.Info, author: Optional[str] = None, limit: int = 10) -> list[Book]:
        rows = [Book(**b) for b in library(info).values() if author is None or b["author"] == author]
        return rows[:limit]

    @strawberry.field
    def search(self, info: strawberry.Info, term: str) -> list[Book]:
        return [Book(**b) for b in library(info).values() if term.lower() in b["title"].lower()]

    @strawberry.field
    def top_rated(self, info: strawberry.Info, min: float) -> list[Book]:
        rows = [Book(**b) for b in library(info).values()]
        return [b for b in rows if b.stars and sum(b.stars) / len(b.stars) >= min]

    @strawberry.field
    def stats(self, info: strawberry.Info) -> Stats:
        rows = library(info).values()
        return Stats(count=len(rows), total_stars=sum(sum(b["stars"]) for b in rows),
                     authors=sorted({b["author"] for b in rows}))


@strawberry.type
class Mutation:
    @strawberry.mutation
    def add_book(self, info: strawberry.Info, input: BookInput) -> Book:
        books = library(info)
        new = {"id": max(books) + 1, "title": input.title, "author": input.author, "year": input.year, "stars": [],
               "tags": list(input.tags)}
        books[new["id"]] = new
        return Book(**new)

    @strawberry.mutation
    def rate_book(self, info: strawberry.Info, id: int, stars: int) -> Optional[Book]:
        found = library(info).get(id)
        if found:
            found["stars"].append(stars)
        return book(info, id)

    @strawberry.mutation
    def add_tag(self, info: strawberry.Info, id: int, tag: str) -> Optional[Book]:
        found = library(info).get(id)
        if found:
            found["tags"].append(tag)
        return book(info, id)


class QuietSchema(strawberry.Schema):
    def process_errors(self, errors, execution_context=None):
        pass  # the error operation's traceback is expected; its answer carries the error


SCHEMA = QuietSchema(query=Query, mutation=Mutation, config=StrawberryConfig(batching_config={"max_operations": 10}))


class LibraryGraphQL(GraphQL):
    def __init__(self, books):
        super().__init__(SCHEMA)
        self.books = books

    async def get_context(self, request, response):
        return {"request": request, "response": response, "library": self.books}


class PersistedQueries:
    """Automatic persisted queries (Apollo's protocol) in front of an ASGI GraphQL app: a POST whose
    `extensions.persistedQuery.sha256Hash` comes with its document registers it; one with the hash alone is run with
    the registered document, or answered PersistedQueryNotFound."""

    def __init__(self, app):
        self.app, self.documents = app, {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        persisted = data.get("extensions", {}).get("persistedQuery") if isinstance(data, dict) else None
        if isinstance(persisted, dict):
            digest = persisted.get("sha256Hash")
            if data.get("query"):
                if hashlib.sha256(data["query"].encode()).hexdigest() != digest:
                    return await self.answer(send, 400, {"errors": [{"message": "provided sha does not match query"}]})
                self.documents[digest] = data["query"]
            elif digest in self.documents:
                data["query"] = self.documents[digest]
                body = json.dumps(data).encode()
            else:
                return await self.answer(send, 200, {"errors": [{"message": "PersistedQueryNotFound",
                                                                  "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}]})
        delivered = False

        async def replayed():
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replayed, send)

    @staticmethod
    async def answer(send, status, value):
        body = json.dumps(value).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def app():
    books = {b["id"]: json.loads(json.dumps(b)) for b in SEED}
    return Starlette(routes=[Route("/graphql", PersistedQueries(LibraryGraphQL(books)), methods=["GET", "POST"])])
