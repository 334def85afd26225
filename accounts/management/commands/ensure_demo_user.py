"""Create the demo account (`demo` / `demo414club`) if it does not exist yet."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo414club"


class Command(BaseCommand):
    help = "Create the demo account for development if it is missing."

    def handle(self, *args: object, **options: object) -> None:
        if User.objects.filter(username=DEMO_USERNAME).exists():
            self.stdout.write(f"Demo account '{DEMO_USERNAME}' already exists.")
            return
        User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
        self.stdout.write(f"Created demo account '{DEMO_USERNAME}' / '{DEMO_PASSWORD}'.")
