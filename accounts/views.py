"""Account pages: sign-up, log-in (Django's, plus the saved language), profile, preferences."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import PreferencesForm, SignUpForm
from accounts.models import User
from accounts.records import match_record


def _remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """Store the chosen language where LocaleMiddleware looks, or forget it for the browser's."""
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            secure=settings.LANGUAGE_COOKIE_SECURE,
        )
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response


class PlayerLoginView(LoginView):
    """Django's login, then switch to the player's saved language, if any."""

    def form_valid(self, form: object) -> HttpResponse:
        response = super().form_valid(form)
        language = self.request.user.language
        return _remember_language(response, language) if language else response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, _("Welcome to 414 Club, %(name)s!") % {"name": user.username})
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return render(
        request,
        "accounts/profile.html",
        {"player": player, "record": match_record(player)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user.language:
            translation.activate(user.language)  # the message below is in the new language
        messages.success(request, _("Your preferences are saved."))
        return _remember_language(redirect("preferences"), user.language)
    return render(request, "accounts/preferences.html", {"form": form})
