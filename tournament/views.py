"""Public pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    """The list of public tournaments."""
    tournaments = Tournament.objects.filter(is_public=True).order_by("-starts_on", "name")
    return render(request, "tournament/home.html", {"tournaments": tournaments})
