"""Account pages: sign-up, log-in (Django's, plus the saved language), profile, preferences."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts import friends, throttle, usernames
from accounts.bot_views import bot_context
from accounts.forms import LoginForm, PreferencesForm, SignUpForm
from accounts.middleware import remember_language
from accounts.models import User
from accounts.records import match_record
from accounts.requests import SignedInRequest
from accounts.review_trend import accuracy_trend, trend_chart
from accounts.statistics import player_statistics


def _remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """Store the chosen language where LocaleMiddleware looks, or forget it for the browser's."""
    return remember_language(response, language)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's language switcher: Django's set_language (cookie and redirect), and for a
    signed-in player the choice is saved on the account, so it follows them everywhere."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if (
        request.user.is_authenticated
        and language in dict(settings.LANGUAGES)
        and request.user.language != language
    ):
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


class PlayerLoginView(LoginView):
    """Django's login, then switch to the player's saved language, if any. Too many failures
    for a username from one address lock it out for a while (``accounts.throttle``)."""

    authentication_form = LoginForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        language = form.get_user().language  # the user just signed in
        return _remember_language(response, language) if language else response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account. A form without mistakes counts against the address's sign-up limit before
    the account is made (``throttle.take_signup``): past it, the form again with the refusal,
    answered 429 with Retry-After. A name taken meanwhile (a sign-up at the same moment) is the
    form's error, not a 500."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        usage = throttle.take_signup(request)
        if usage is not None and usage.over:  # too many accounts from this address
            form.add_error(None, throttle.signup_message())
            throttle.refuse(request, usage.retry_after)
            return render(request, "registration/signup.html", {"form": form})
        user = form.save(commit=False)
        # A language picked with the switcher before signing up becomes the account's.
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        if chosen in dict(settings.LANGUAGES):
            user.language = chosen
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:  # the same name or a look-alike, signed up a moment before
            throttle.give_back_signup(request)
            form.add_error("username", usernames.race_refusal(user.username, User.objects.all()))
            return render(request, "registration/signup.html", {"form": form})
        # Named: the throttle backend listed first logs nobody in (accounts.throttle).
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to 414 Club, %(name)s!") % {"name": user.username})
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: matches played and won, their statistics and site rating
    (``accounts.statistics``), recent matches — counting only what the viewer may see."""
    player = get_object_or_404(User, username=username, is_active=True)
    context = {
        "player": player,
        "record": match_record(player, request.user, request.session),
        "statistics": player_statistics(player, request.user, request.session),
        "following": friends.follows(request.user, player),
    }
    trend = accuracy_trend(player, request.user, request.session)
    if trend:
        context.update(trend=trend, trend_chart=trend_chart(trend))
    if request.user == player:
        context.update(bot_context(request, player))
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: SignedInRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user.language:
            translation.activate(user.language)  # the message below is in the new language
        messages.success(request, _("Your preferences are saved."))
        return _remember_language(redirect("preferences"), user.language)
    return render(request, "accounts/preferences.html", {"form": form})
