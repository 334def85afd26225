"""The leaderboard: everyone's site rating (``leagues.ratings.do_rate_site_match``), best first."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from leagues.models import SiteRating

PAGE_SIZE = 50


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """``?page=N``: the players with at least one rated match, by rating (openskill's ordinal,
    highest first; ties by name), 50 a page, with their rank; and the viewer's own row.
    Three statements on any page."""
    ratings = (
        SiteRating.objects.filter(matches__gt=0)
        .select_related("user")
        .order_by("-ordinal", "user__username")
    )
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    first = (page.number - 1) * PAGE_SIZE
    rows = [(first + n + 1, rating) for n, rating in enumerate(page.object_list)]
    mine = None
    if request.user.is_authenticated and not any(r.user_id == request.user.pk for _, r in rows):
        mine = SiteRating.objects.filter(user=request.user, matches__gt=0).first()
    return render(request, "leagues/leaderboard.html", {"page": page, "rows": rows, "mine": mine})
