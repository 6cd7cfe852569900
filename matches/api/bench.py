"""Bench-only endpoint (routed when ``BENCH_ENDPOINTS=1``): the floor for ``bench_reports``.

The least a transactional write endpoint can do on this stack: lock one parent row
with ``select_for_update``, insert one child row, return it with DRF. Game reports
are measured against it in the same run.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import path
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.models import Game, Match


class FloorRowSerializer(serializers.ModelSerializer[Game]):
    class Meta:
        model = Game
        fields = ["id", "match", "number", "winner_side", "points"]


class FloorView(APIView):
    """Lock match ``pk``, insert a (voided) game row under it, return the row."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    def post(self, request: Request, pk: int) -> Response:
        with transaction.atomic():
            match = Match.objects.select_for_update(no_key=True).only("pk").get(pk=pk)
            row = Game.objects.create(
                match=match,
                number=1,
                winner_side=1,
                points=1,
                score_before1=0,
                score_before2=0,
                voided=True,
            )
        return Response(FloorRowSerializer(row).data, status=201)


urlpatterns = [path("bench/floor/<int:pk>/", FloorView.as_view(), name="bench-floor")]
